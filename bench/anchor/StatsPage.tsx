/** The anchor's lazy route: a small page, so the anchor has a route split like hSwap's. */
export default function StatsPage() {
  return (
    <main className="main">
      <section className="card">
        <h1>Stats</h1>
        <p className="muted">Volume, users and liquidity would show here.</p>
      </section>
    </main>
  )
}
