import type { Row } from './load';

/** A row of the table with its ratio to a floor row (by name). */
export interface ReportRow extends Row {
  ratioTo?: string;
  /** The ratio measured in alternating rounds (paired.ts); otherwise this row's req/s over the floor row's. */
  ratio?: number;
}

export interface Target {
  label: string;
  value: number;
  op: '>=' | '<';
  limit: number;
  unit?: string;
}

const fixed = (n: number | null, digits: number): string => (n === null ? '-' : n.toFixed(digits));

function layout(cells: string[][], rightAligned: boolean[]): string[] {
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells.map((row) =>
    row
      .map((cell, i) => (rightAligned[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

export function ratioOf(rows: ReportRow[], row: ReportRow): number | null {
  if (row.ratio !== undefined) return row.ratio;
  const floor = row.ratioTo ? rows.find((r) => r.name === row.ratioTo) : undefined;
  return floor && floor.rps > 0 ? row.rps / floor.rps : null;
}

export function formatTable(rows: ReportRow[]): string {
  const cells = [
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'RSS MB', 'srv CPU', 'gen CPU', 'pg+redis', 'other', 'ratio', 'notes'],
  ];
  const percent = (n: number | undefined) => (n === undefined ? '-' : `${Math.round(n * 100)}%`);
  for (const row of rows) {
    const ratio = ratioOf(rows, row);
    cells.push([
      row.name,
      fixed(row.rps, 0),
      fixed(row.p50, 1),
      fixed(row.p99, 1),
      fixed(row.rssMb, 1),
      percent(row.cpu?.server),
      percent(row.cpu?.load),
      percent(row.cpu?.services),
      percent(row.cpu?.other),
      ratio === null ? '' : `${ratio.toFixed(2)} of ${row.ratioTo}`,
      row.note ?? '',
    ]);
  }
  const lines = layout(cells, [false, true, true, true, true, true, true, true, true, false, false]);
  lines.splice(1, 0, '-'.repeat(Math.max(...lines.map((l) => l.length))));
  return lines.join('\n');
}

export function formatTargets(targets: Target[]): string {
  const cells = targets.map((t) => {
    const pass = t.op === '>=' ? t.value >= t.limit : t.value < t.limit;
    const unit = t.unit ?? '';
    return [
      t.label,
      `${t.value.toFixed(unit ? 0 : 2)}${unit}`,
      `${t.op === '>=' ? '≥' : '<'} ${t.limit}${unit}`,
      pass ? 'PASS' : 'MISS',
    ];
  });
  return layout([['target', 'value', 'goal', ''], ...cells], [false, true, false, false]).join('\n');
}
