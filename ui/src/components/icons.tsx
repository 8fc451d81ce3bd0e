// Small inline icons: no icon font or network fetch (the CSP allows neither).

interface IconProps {
  className?: string | undefined;
}

export function LogoMark({ className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true">
      <rect x="1" y="1" width="30" height="30" rx="8" fill="var(--accent)" />
      <path
        d="M9 22V10l7 7.5 7-7.5v12"
        fill="none"
        stroke="#fff"
        strokeWidth="2.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function FolderIcon({ className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true">
      <path
        d="M3 7.5A1.5 1.5 0 0 1 4.5 6h4.4l2 2h8.6A1.5 1.5 0 0 1 21 9.5v8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function ChatIcon({ className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true">
      <path
        d="M5 5.5h14a1.5 1.5 0 0 1 1.5 1.5v8.5a1.5 1.5 0 0 1-1.5 1.5H10l-4.5 3.5V17H5a1.5 1.5 0 0 1-1.5-1.5V7A1.5 1.5 0 0 1 5 5.5z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Stroke icons on a 24px grid; `d` is one or more path definitions. */
function StrokeIcon({ className, d }: IconProps & { d: string[] }) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true">
      {d.map((path) => (
        <path
          key={path}
          d={path}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      ))}
    </svg>
  );
}

export const PlusIcon = ({ className }: IconProps) => <StrokeIcon className={className} d={["M12 5v14", "M5 12h14"]} />;

export const CloseIcon = ({ className }: IconProps) => (
  <StrokeIcon className={className} d={["M6 6l12 12", "M18 6L6 18"]} />
);

export const CheckIcon = ({ className }: IconProps) => <StrokeIcon className={className} d={["M5 12.5l4.5 4.5L19 7.5"]} />;

export const AlertIcon = ({ className }: IconProps) => (
  <StrokeIcon
    className={className}
    d={["M12 4L2.8 19.5h18.4z", "M12 10v4.5", "M12 17.2v.1"]}
  />
);

export const ToolIcon = ({ className }: IconProps) => (
  <StrokeIcon
    className={className}
    d={["M14.5 6.5a4 4 0 0 0 5 5l-8.8 8.8a2.1 2.1 0 0 1-3-3z", "M14.5 6.5L17 4l3 3-2.5 2.5"]}
  />
);

export const ShieldIcon = ({ className }: IconProps) => (
  <StrokeIcon className={className} d={["M12 3.5l7 2.8v5.2c0 4.3-3 7.6-7 9-4-1.4-7-4.7-7-9V6.3z"]} />
);

export const RetryIcon = ({ className }: IconProps) => (
  <StrokeIcon className={className} d={["M19.5 12a7.5 7.5 0 1 1-2.2-5.3", "M19.5 4.5v4h-4"]} />
);

export const PencilIcon = ({ className }: IconProps) => (
  <StrokeIcon className={className} d={["M15.5 5.5l3 3L9 18H6v-3z", "M13.5 7.5l3 3"]} />
);

export const TrashIcon = ({ className }: IconProps) => (
  <StrokeIcon className={className} d={["M5 7h14", "M10 7V5h4v2", "M7 7l1 12h8l1-12", "M10.5 10.5v5", "M13.5 10.5v5"]} />
);

/** A counter-clockwise arrow back to an earlier point: rewind. */
export const RewindIcon = ({ className }: IconProps) => (
  <StrokeIcon className={className} d={["M4.5 12a7.5 7.5 0 1 0 2.2-5.3", "M4.5 4.5v4h4"]} />
);

export const KeyIcon = ({ className }: IconProps) => (
  <StrokeIcon className={className} d={["M14.5 9.5a4 4 0 1 1-1.2-2.9 4 4 0 0 1 1.2 2.9z", "M13.3 12.3L20 19", "M17.5 16.5l2-2", "M15.5 14.5l1.5-1.5"]} />
);

export const GearIcon = ({ className }: IconProps) => (
  <StrokeIcon
    className={className}
    d={[
      "M12 9.2a2.8 2.8 0 1 0 0 5.6 2.8 2.8 0 0 0 0-5.6z",
      "M19.4 13.5l1.6 1.2-1.8 3.1-1.9-.7a7 7 0 0 1-2 1.2l-.3 2h-3.6l-.3-2a7 7 0 0 1-2-1.2l-1.9.7-1.8-3.1 1.6-1.2a7 7 0 0 1 0-2.9L3.4 9.3l1.8-3.1 1.9.7a7 7 0 0 1 2-1.2l.3-2h3.6l.3 2a7 7 0 0 1 2 1.2l1.9-.7 1.8 3.1-1.6 1.3a7 7 0 0 1 0 2.9z",
    ]}
  />
);

/** A chip: the model, on a header pill shown without its words. */
export const ModelIcon = ({ className }: IconProps) => (
  <StrokeIcon
    className={className}
    d={["M7.5 7.5h9v9h-9z", "M10 4v3.5", "M14 4v3.5", "M10 16.5V20", "M14 16.5V20", "M4 10h3.5", "M4 14h3.5", "M16.5 10H20", "M16.5 14H20"]}
  />
);

export const SendIcon = ({ className }: IconProps) => <StrokeIcon className={className} d={["M12 19V5", "M6 11l6-6 6 6"]} />;

export function StopIcon({ className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true">
      <rect x="7" y="7" width="10" height="10" rx="2" fill="currentColor" />
    </svg>
  );
}

export function Spinner({ className }: IconProps) {
  return <span className={`spinner ${className ?? ""}`} aria-hidden="true" />;
}

/** Three dots: a menu of further actions. */
export function MoreIcon({ className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="5.5" cy="12" r="1.6" fill="currentColor" />
      <circle cx="12" cy="12" r="1.6" fill="currentColor" />
      <circle cx="18.5" cy="12" r="1.6" fill="currentColor" />
    </svg>
  );
}

/** An arrow down into a tray: bring files in. */
export const ImportIcon = ({ className }: IconProps) => (
  <StrokeIcon className={className} d={["M12 4v10", "M7.5 9.5L12 14l4.5-4.5", "M4.5 14.5v4h15v-4"]} />
);
