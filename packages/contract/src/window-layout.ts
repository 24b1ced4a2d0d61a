/** How the window is laid out, kept by the host across restarts (a browser-mode port changes each run). */
export interface WindowLayout {
  /** The session list's width in CSS pixels, as the person last dragged it; null: the default. */
  sidebarWidth: number | null;
}

/** `window:layout` with nothing reads the layout; with a width saves it. */
export interface WindowLayoutArgs {
  sidebarWidth?: number;
}

/** The widths the session list may take: narrower cuts every title, wider leaves the map no room. */
export const SIDEBAR_MIN_PX = 200;
export const SIDEBAR_MAX_PX = 640;
