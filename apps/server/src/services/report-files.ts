import { neutraliseCsvCell } from '@forecourt/contract/csv';
import type { AlertsReportRow, AvailabilityReport, ReportKind } from '@forecourt/contract/reports';
import { stringify } from 'csv-stringify/sync';

/** What a report file says about itself: which report, of what, over which period. */
export interface ReportHeading {
  report: ReportKind;
  scope: { kind: string; id: number; name: string };
  from: string;
  to: string;
}

export interface ReportFile {
  body: Buffer;
  contentType: string;
  filename: string;
}

const day = (at: string) => at.slice(0, 10);
const stamp = (at: string) => `${at.slice(0, 16).replace('T', ' ')} UTC`;

export function reportFilename(h: ReportHeading, ext: 'csv' | 'pdf'): string {
  return `${h.report}-${h.scope.kind}-${h.scope.id}-${day(h.from)}-${day(h.to)}.${ext}`;
}

/** A CSV cell: numbers as numbers, text neutralised so a spreadsheet never runs it as a formula. */
const cell = (v: unknown): string | number => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return v;
  return neutraliseCsvCell(String(v));
};

const AVAILABILITY_COLUMNS = [
  'id',
  'name',
  'site_id',
  'period_s',
  'excluded_s',
  'downtime_s',
  'availability',
  'incidents',
  'mtta_s',
  'mttr_s',
] as const;

const ALERT_COLUMNS = [
  'event_type',
  'name',
  'severity',
  'count',
  'silenced',
  'acknowledged',
  'cleared',
  'mtta_s',
  'mttr_s',
  'p90_ttr_s',
] as const;

/** The availability rows, worst first, then the total (id and site_id empty, name "Total"). */
export function availabilityCsv(report: AvailabilityReport): string {
  const rows = [...report.rows, report.total] as Array<Record<string, unknown>>;
  return stringify(
    rows.map((r) => AVAILABILITY_COLUMNS.map((c) => cell(r[c]))),
    { header: true, columns: [...AVAILABILITY_COLUMNS] },
  );
}

export function alertsCsv(rows: AlertsReportRow[]): string {
  return stringify(
    rows.map((r) => ALERT_COLUMNS.map((c) => cell((r as Record<string, unknown>)[c]))),
    { header: true, columns: [...ALERT_COLUMNS] },
  );
}

const percent = (a: number) => `${(a * 100).toFixed(2)} %`;
const duration = (s: number | null) => {
  if (s === null) return '–';
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86_400).toFixed(1)} d`;
};

/** pdfkit's standard fonts cover Latin-1 only: anything else is shown as '?', never as broken glyphs. */
const latin1 = (text: string) => text.replace(/[^\u0020-\u007e\u00a0-\u00ff\u2013]/g, '?');

type Doc = PDFKit.PDFDocument;

function heading(doc: Doc, h: ReportHeading, title: string) {
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#111111').text(title);
  doc.moveDown(0.3);
  doc.font('Helvetica').fontSize(11).fillColor('#333333');
  doc.text(latin1(`${h.scope.kind[0]!.toUpperCase()}${h.scope.kind.slice(1)}: ${h.scope.name}`));
  doc.text(`Period: ${stamp(h.from)} – ${stamp(h.to)}`);
  doc.moveDown(0.6);
}

/** Horizontal bars, one per label, longest value 100 % of the width. */
function barChart(
  doc: Doc,
  title: string,
  bars: Array<{ label: string; value: number; text: string }>,
  max: number,
) {
  if (!bars.length) return;
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const labelW = 170;
  const valueW = 70;
  const barW = width - labelW - valueW;
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#111111').text(title, left);
  doc.moveDown(0.3);
  let y = doc.y;
  for (const b of bars) {
    doc.font('Helvetica').fontSize(9).fillColor('#333333');
    doc.text(latin1(b.label), left, y + 2, { width: labelW - 8, lineBreak: false, ellipsis: true });
    const w = max > 0 ? Math.max(1, (b.value / max) * barW) : 1;
    doc.rect(left + labelW, y, w, 12).fill('#c0392b');
    doc
      .fillColor('#333333')
      .text(b.text, left + labelW + barW + 6, y + 2, { width: valueW - 6, lineBreak: false });
    y += 16;
  }
  doc.y = y + 8;
  doc.x = left;
}

/** A table with a header row, repeated on each new page. */
function table(
  doc: Doc,
  columns: Array<{ title: string; width: number; align?: 'left' | 'right' }>,
  rows: string[][],
) {
  const left = doc.page.margins.left;
  const bottom = doc.page.height - doc.page.margins.bottom;
  const header = () => {
    let x = left;
    doc.font('Helvetica-Bold').fontSize(9).fillColor('#111111');
    for (const c of columns) {
      doc.text(c.title, x, doc.y, { width: c.width - 4, align: c.align ?? 'left', lineBreak: false });
      x += c.width;
    }
    doc.y += 14;
    doc
      .moveTo(left, doc.y - 3)
      .lineTo(left + columns.reduce((n, c) => n + c.width, 0), doc.y - 3)
      .strokeColor('#999999')
      .stroke();
  };
  header();
  for (const row of rows) {
    if (doc.y + 14 > bottom) {
      doc.addPage();
      header();
    }
    let x = left;
    const y = doc.y;
    doc.font('Helvetica').fontSize(9).fillColor('#222222');
    row.forEach((value, i) => {
      const c = columns[i]!;
      doc.text(latin1(value), x, y, {
        width: c.width - 4,
        align: c.align ?? 'left',
        lineBreak: false,
        ellipsis: true,
      });
      x += c.width;
    });
    doc.y = y + 13;
  }
  doc.x = left;
}

/**
 * pdfkit (its fonts and their metrics, ~25 MB) is loaded the first time a PDF is made, not when the server starts:
 * most nodes never make one.
 */
let pdfkit: Promise<{ default: new (options: PDFKit.PDFDocumentOptions) => Doc }> | null = null;

async function render(draw: (doc: Doc) => void, title: string): Promise<Buffer> {
  pdfkit ??= import('pdfkit') as unknown as NonNullable<typeof pdfkit>;
  const { default: PDFDocument } = await pdfkit;
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: title, Creator: 'Forecourt' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      draw(doc);
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}

/** Title, scope, period, totals, the worst rows as a bar chart of their downtime share, then the whole table. */
export function availabilityPdf(
  h: ReportHeading,
  report: AvailabilityReport,
  group: string,
): Promise<Buffer> {
  const title = 'Availability report';
  return render((doc) => {
    heading(doc, h, title);
    const t = report.total;
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#111111').text('Totals');
    doc.font('Helvetica').fontSize(10).fillColor('#333333');
    doc.text(
      `Availability ${percent(t.availability)} · downtime ${duration(t.downtime_s)} · maintenance ${duration(t.excluded_s)} · measured ${duration(t.period_s - t.excluded_s)}`,
    );
    doc.text(
      `Incidents ${t.incidents} · mean time to acknowledge ${duration(t.mtta_s)} · to restore ${duration(t.mttr_s)}`,
    );
    doc.moveDown(0.8);
    const worst = report.rows.slice(0, 10);
    barChart(
      doc,
      `Worst ${group === 'terminal' ? 'terminals' : 'sites'}: unavailability`,
      worst.map((r) => ({ label: r.name, value: 1 - r.availability, text: percent(r.availability) })),
      Math.max(0.0001, ...worst.map((r) => 1 - r.availability)),
    );
    doc.moveDown(0.5);
    table(
      doc,
      [
        { title: group === 'terminal' ? 'Terminal' : 'Site', width: 150 },
        { title: 'Availability', width: 70, align: 'right' },
        { title: 'Downtime', width: 60, align: 'right' },
        { title: 'Maintenance', width: 65, align: 'right' },
        { title: 'Incidents', width: 50, align: 'right' },
        { title: 'MTTA', width: 55, align: 'right' },
        { title: 'MTTR', width: 55, align: 'right' },
      ],
      [...report.rows, t].map((r) => [
        r.name,
        percent(r.availability),
        duration(r.downtime_s),
        duration(r.excluded_s),
        String(r.incidents),
        duration(r.mtta_s),
        duration(r.mttr_s),
      ]),
    );
  }, title);
}

/** Title, scope, period, totals, alerts per event type as a bar chart, then the table. */
export function alertsPdf(h: ReportHeading, rows: AlertsReportRow[]): Promise<Buffer> {
  const title = 'Alert report';
  return render((doc) => {
    heading(doc, h, title);
    const sum = (k: 'count' | 'silenced' | 'acknowledged' | 'cleared') => rows.reduce((n, r) => n + r[k], 0);
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#111111').text('Totals');
    doc.font('Helvetica').fontSize(10).fillColor('#333333');
    doc.text(
      `Alerts ${sum('count')} · silenced ${sum('silenced')} · acknowledged ${sum('acknowledged')} · cleared ${sum('cleared')}`,
    );
    doc.moveDown(0.8);
    const top = [...rows].sort((a, b) => b.count - a.count).slice(0, 10);
    barChart(
      doc,
      'Alerts by event type',
      top.map((r) => ({ label: r.name, value: r.count, text: String(r.count) })),
      Math.max(1, ...top.map((r) => r.count)),
    );
    doc.moveDown(0.5);
    table(
      doc,
      [
        { title: 'Event type', width: 140 },
        { title: 'Severity', width: 50 },
        { title: 'Count', width: 40, align: 'right' },
        { title: 'Silenced', width: 45, align: 'right' },
        { title: 'Acked', width: 40, align: 'right' },
        { title: 'Cleared', width: 45, align: 'right' },
        { title: 'MTTA', width: 50, align: 'right' },
        { title: 'MTTR', width: 50, align: 'right' },
        { title: 'P90 TTR', width: 50, align: 'right' },
      ],
      rows.map((r) => [
        `${r.event_type} ${r.name}`,
        r.severity,
        String(r.count),
        String(r.silenced),
        String(r.acknowledged),
        String(r.cleared),
        duration(r.mtta_s),
        duration(r.mttr_s),
        duration(r.p90_ttr_s),
      ]),
    );
  }, title);
}

export async function reportFile(
  h: ReportHeading,
  format: 'csv' | 'pdf',
  data: { availability: AvailabilityReport; group: string } | { alerts: AlertsReportRow[] },
): Promise<ReportFile> {
  const filename = reportFilename(h, format);
  if (format === 'csv') {
    const text = 'availability' in data ? availabilityCsv(data.availability) : alertsCsv(data.alerts);
    return { body: Buffer.from(text, 'utf8'), contentType: 'text/csv; charset=utf-8', filename };
  }
  const body =
    'availability' in data
      ? await availabilityPdf(h, data.availability, data.group)
      : await alertsPdf(h, data.alerts);
  return { body, contentType: 'application/pdf', filename };
}
