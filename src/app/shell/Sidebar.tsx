import { Link } from "@tanstack/react-router"
import { Badge } from "../ui/kit"
import { SidebarLinksIsland } from "./islands"
import { RunsOn } from "./Logos"
import { DRAWER } from "./drawer"
import { NAV_ITEMS, PROOF_OF_FUNDS_ITEM, sidebarLinkBase } from "./nav"

export function Sidebar(props: { readonly open: boolean; readonly onNavigate: () => void }) {
  return (
    <nav
      id="sidebar"
      aria-label="Main"
      data-testid="sidebar"
      data-open={props.open ? "true" : "false"}
      className={`fixed inset-y-0 left-0 z-40 flex w-64 flex-col border-r border-line bg-panel pt-24 transition-transform md:pt-16 duration-200 md:translate-x-0 ${
        props.open ? DRAWER.openClass : DRAWER.closedClass
      }`}
    >
      <ul className="flex flex-col gap-1 overflow-y-auto px-3 py-4">
        {NAV_ITEMS.map((item) => (
          <li key={item.id}>
            <Link
              to={item.to}
              data-nav-id={item.id}
              onClick={props.onNavigate}
              className={`${sidebarLinkBase} text-muted hover:bg-panel-2 hover:text-ink`}
              activeOptions={{ exact: true }}
              activeProps={{ className: "bg-accent/15 !text-accent", "aria-current": "page" }}
            >
              <span>{item.label}</span>
              {item.soon && <Badge tone="warn">Soon</Badge>}
            </Link>
          </li>
        ))}
      </ul>
      <div className="mt-auto flex flex-col gap-4 border-t border-line px-3 py-4">
        <Link
          to={PROOF_OF_FUNDS_ITEM.to}
          data-nav-id={PROOF_OF_FUNDS_ITEM.id}
          onClick={props.onNavigate}
          className={`${sidebarLinkBase} border border-accent/40 bg-accent/10 text-accent hover:bg-accent/20`}
          activeProps={{ className: "ring-2 ring-accent", "aria-current": "page" }}
        >
          {PROOF_OF_FUNDS_ITEM.label}
        </Link>
        <SidebarLinksIsland onNavigate={props.onNavigate} />
        <RunsOn className="flex px-3 md:hidden" />
      </div>
    </nav>
  )
}
