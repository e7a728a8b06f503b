import { useState } from "react"
import { isValidImageUrl, routeLabel, type RouteToken, type TradingRoute, withoutBidiControls } from "./routesModel"

/**
 * A token image; one that fails to load is hidden (spec §2), and so is an empty one, and one that is no image URL the
 * route editor would accept (a stored route is not checked by the editor: `javascript:…` never reaches an `<img>`).
 */
function TokenImage({ token }: { readonly token: RouteToken }) {
  const [failed, setFailed] = useState(false)
  if (failed || token.image.trim() === "" || !isValidImageUrl(token.image)) return null
  return (
    <img
      src={token.image.trim()}
      alt={withoutBidiControls(token.name)}
      width={24}
      height={24}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      className="h-6 w-6 shrink-0 rounded-full bg-panel-2 object-cover ring-2 ring-panel"
    />
  )
}

const iconButton =
  "grid h-7 w-7 place-items-center rounded-md border border-line bg-panel text-muted hover:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-accent aria-disabled:cursor-not-allowed aria-disabled:opacity-40"

function RouteItem(props: {
  readonly route: TradingRoute
  readonly selected: boolean
  readonly onlyOne: boolean
  readonly onSelect: () => void
  readonly onEdit: () => void
  readonly onDelete: () => void
}) {
  const label = routeLabel(props.route)
  return (
    <li className="group relative" data-testid="route-item" data-route-id={props.route.id}>
      <button
        type="button"
        aria-pressed={props.selected}
        aria-label={label}
        onClick={props.onSelect}
        title={label}
        className={`flex h-full w-full items-center gap-2 rounded-xl border px-2.5 py-2 text-left text-xs transition md:px-3 md:py-2.5 md:text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-accent md:pr-20 ${
          props.selected
            ? "border-accent/70 bg-accent/10 text-ink"
            : "border-line bg-panel-2 text-muted hover:border-accent/40 hover:text-ink"
        }`}
      >
        <span className="flex shrink-0 -space-x-1.5" data-testid="route-images">
          <TokenImage key={`sell-${props.route.sellToken.image}`} token={props.route.sellToken} />
          <TokenImage key={`buy-${props.route.buyToken.image}`} token={props.route.buyToken} />
        </span>
        <span className="line-clamp-2 min-w-0 break-words font-semibold md:line-clamp-1">{label}</span>
      </button>
      {/* Wide screens only; shown on hover, and on keyboard focus anywhere in the row. */}
      <div className="absolute right-2 top-1/2 hidden -translate-y-1/2 gap-1 transition-opacity md:flex md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
        <button
          type="button"
          aria-label={`Edit ${label}`}
          title="Edit route"
          onClick={props.onEdit}
          className={iconButton}
        >
          <svg aria-hidden viewBox="0 0 24 24" className="h-4 w-4">
            <path
              d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinejoin="round"
            />
          </svg>
        </button>
        <button
          type="button"
          aria-label={`Delete ${label}`}
          title={props.onlyOne ? "At least one route must remain" : "Delete route"}
          aria-disabled={props.onlyOne}
          onClick={props.onDelete}
          className={`${iconButton} hover:text-danger`}
        >
          <svg aria-hidden viewBox="0 0 24 24" className="h-4 w-4">
            <path
              d="M5 7h14M10 7V4h4v3M7 7l1 13h8l1-13"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinejoin="round"
            />
          </svg>
        </button>
      </div>
    </li>
  )
}

/** Favourite routes: a side list on wide screens, a 2-column grid on small ones (spec §2). */
export function RouteList(props: {
  readonly routes: ReadonlyArray<TradingRoute>
  readonly selectedId: string | undefined
  readonly onSelect: (route: TradingRoute) => void
  readonly onAdd: () => void
  readonly onEdit: (route: TradingRoute) => void
  readonly onDelete: (route: TradingRoute) => void
}) {
  return (
    <section aria-labelledby="favourite-routes-title" data-testid="favourite-routes" className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="favourite-routes-title" className="text-sm font-semibold text-muted">
          Favourite Routes
        </h2>
        <button
          type="button"
          onClick={props.onAdd}
          className="hidden items-center gap-1 rounded-lg border border-line bg-panel-2 px-2.5 py-1 text-sm font-semibold text-ink hover:border-accent/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent md:inline-flex"
        >
          <span aria-hidden>+</span> Add
        </button>
      </div>
      {props.routes.length === 0 ? (
        <p className="text-sm text-muted">No routes yet.</p>
      ) : (
        <ul className="grid grid-cols-2 gap-2 md:grid-cols-1" data-testid="route-list">
          {props.routes.map((r) => (
            <RouteItem
              key={r.id}
              route={r}
              selected={r.id === props.selectedId}
              onlyOne={props.routes.length <= 1}
              onSelect={() => props.onSelect(r)}
              onEdit={() => props.onEdit(r)}
              onDelete={() => props.onDelete(r)}
            />
          ))}
        </ul>
      )}
    </section>
  )
}
