/** @module The demo's live view: Machines as a fixed-width table, like `kubectl get machines`. */

interface MachineRow {
  metadata?: { name?: string }
  spec?: { providerID?: string }
  status?: { phase?: string; nodeRef?: { name?: string } }
}

/** Renders `machines` (sorted by name) with NAME, PHASE, NODE and PROVIDERID columns. */
export function formatMachineTable(machines: readonly MachineRow[]): string {
  const rows = [...machines]
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))
    .map((m) => [
      m.metadata?.name ?? '',
      m.status?.phase ?? 'Pending',
      m.status?.nodeRef?.name ?? '<none>',
      m.spec?.providerID ?? '<none>',
    ])
  const table = [['NAME', 'PHASE', 'NODE', 'PROVIDERID'], ...rows]
  const widths = table[0]?.map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length))) ?? []
  return table
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n')
}
