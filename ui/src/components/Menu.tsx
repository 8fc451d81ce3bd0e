import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

import { useEscape } from "./escapeStack";

export interface MenuItem {
  label: string;
  testId: string;
  onSelect: () => void;
  disabled?: boolean;
}

interface MenuButtonProps {
  /** The button's accessible name ("More actions for Fix the parser"). */
  label: string;
  title: string;
  testId: string;
  icon: ReactNode;
  items: MenuItem[];
  /** The button's class; the menu is placed by its positioned parent (`.menu` in app.css). */
  className: string;
  /** Tells the parent the menu is open, so it can keep the button shown meanwhile. */
  onOpenChange?: (open: boolean) => void;
}

/**
 * A button that opens a short list of actions: the keys people expect of a menu (arrows
 * move, Esc closes and gives the focus back to the button, Tab or a click elsewhere closes).
 */
export function MenuButton({ label, title, testId, icon, items, className, onOpenChange }: MenuButtonProps) {
  const [open, setOpenState] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const notify = useRef(onOpenChange);
  notify.current = onOpenChange;

  const setOpen = (next: boolean) => {
    setOpenState(next);
    notify.current?.(next);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useEscape(() => close(true), open);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLButtonElement>("[role=menuitem]:not(:disabled)")?.focus();
    // A press anywhere else closes the menu, as a native one does.
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (target && (menu.current?.contains(target) || button.current?.contains(target))) return;
      setOpenState(false);
      notify.current?.(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const entries = [...(menu.current?.querySelectorAll<HTMLButtonElement>("[role=menuitem]:not(:disabled)") ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      entries[(to + entries.length) % entries.length]?.focus();
    };
    if (event.key === "ArrowDown") move(at + 1);
    else if (event.key === "ArrowUp") move(at - 1);
    else if (event.key === "Home") move(0);
    else if (event.key === "End") move(entries.length - 1);
    else if (event.key === "Tab") close(false);
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className={className}
        title={title}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid={testId}
        onClick={() => setOpen(!open)}
      >
        {icon}
      </button>
      {open && (
        <div ref={menu} id={menuId} className="menu" role="menu" aria-label={label} onKeyDown={onKeyDown}>
          {items.map((item) => (
            <button
              key={item.testId}
              type="button"
              role="menuitem"
              className="menu__item"
              data-testid={item.testId}
              disabled={item.disabled}
              onClick={() => {
                close(true);
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </>
  );
}
