/** A git branch: two commits on a line and one forking off it. */
export function BranchIcon({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true">
      <g fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="7" cy="5.5" r="2" />
        <circle cx="7" cy="18.5" r="2" />
        <circle cx="17" cy="7.5" r="2" />
        <path d="M7 7.5v9" />
        <path d="M17 9.5c0 4-4 4.5-8.6 7.6" />
      </g>
    </svg>
  );
}
