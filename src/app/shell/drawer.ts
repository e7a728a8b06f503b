/**
 * The sidebar as a drawer (under 768 px): its class when open and when closed, and the menu button's name for each.
 * Layout and Sidebar render them; the load-failure notice's menu sets them without React (shell/loadFailure.ts, and
 * index.html's loader, shell/entryLoader.ts). A module of its own, as loadFailure.ts is in the entry's file: it brings
 * these four strings there and nothing else.
 */
export const DRAWER = {
  openClass: "translate-x-0",
  closedClass: "-translate-x-full",
  openLabel: "Close menu",
  closedLabel: "Open menu"
} as const
