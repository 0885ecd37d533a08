#!/usr/bin/env python3
"""SVG chart of a bin/bench-nexmark result (no dependencies beyond Python 3).

usage: nexmark_chart.py bench-results/nexmark-<date>.json docs/nexmark-chart.svg [RECOVERY.json] [MINI_BATCH_ON.json]
           [CHECKPOINTS.json] [RECOVERY_AT_RATE.json]

Three panels from the JSON's data: the paired throughput ratio (columnar / stock) per query with mini-batch
off and on, by job time and, where the JSON has the steady-state rows ("steady", reports since 2026-12-03), by
steady-state rate next to it (lighter bars); the checkpoint end-to-end duration p50 of stock and columnar per query (mini-batch off); the
recovery time (failure to caught up, median of the paired rounds) of stock and columnar per recovery query,
a query whose recovery check failed labelled FAIL. The recovery panel comes from RECOVERY.json when given (a
run of its own, e.g. --recovery q0,q1,q5 with fewer --queries), else from the first file. The mini-batch-on bars
come from MINI_BATCH_ON.json when given (a whole-suite run takes ~30 min per setting, so the two settings may be two
runs; the title then names both), else from the first file. The checkpoint panel comes from CHECKPOINTS.json when
given (a later run of some queries, e.g. after a change to what the sink leaves for the barrier's flush; the panel
then shows that run's queries and names it), else from the first file. RECOVERY_AT_RATE.json, a fixed-rate run's
(bin/bench-nexmark --rate with --recovery), adds a fourth panel: the recovery time at that equal input rate, the
kill to the restarted sources back where they would be without the failure. An optional file given as "-" is not
given (to name a later one).

A summary row whose output was not compared with stock's ("compared": false, e.g. q12 in a bounded run, whose
windows do not fire) is drawn hatched grey, with a note under the panel naming it and why; its figures are measured,
not checked. Rows without the field (reports before it) count as compared.
"""
import json
import sys
from html import escape

STOCK, COLUMNAR, ON = "#8c8c8c", "#1f77b4", "#ff7f0e"
COLUMNAR_STEADY, ON_STEADY = "#9ecae1", "#fdbe85"
NOT_COMPARED_FILL = "url(#not-compared)"
HATCH = ('<defs><pattern id="not-compared" patternUnits="userSpaceOnUse" width="6" height="6" '
         'patternTransform="rotate(45)"><rect width="6" height="6" fill="#e6e6e6"/>'
         '<line x1="0" y1="0" x2="0" y2="6" stroke="#8c8c8c" stroke-width="2"/></pattern></defs>')


def bars(x0, y0, width, height, title, groups, series, unit, ref=None, not_compared=None):
    """Grouped bar panel: groups = [(label, [value per series])], series = [(name, colour)]; not_compared =
    {(group index, series index): why} for the bars whose output was not compared with stock's (drawn hatched grey,
    named in a note under the legend)."""
    not_compared = not_compared or {}
    out = [f'<text x="{x0}" y="{y0 - 8}" font-size="13" font-weight="bold">{escape(title)}</text>']
    values = [v for _, vs in groups for v in vs if v is not None]
    top = max(values + ([ref] if ref else []) + [1e-9]) * 1.15
    out.append(f'<line x1="{x0}" y1="{y0 + height}" x2="{x0 + width}" y2="{y0 + height}" stroke="#333"/>')
    for i in range(5):
        v = top * i / 4
        y = y0 + height - height * i / 4
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + width}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end">{v:.2f}{unit}</text>'
                   if top < 10 else
                   f'<text x="{x0 - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end">{v:.0f}{unit}</text>')
    if ref:
        y = y0 + height - height * ref / top
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + width}" y2="{y:.1f}" stroke="#c00" stroke-dasharray="4 3"/>')
    slot = width / max(len(groups), 1)
    bar = slot * 0.8 / max(len(series), 1)
    for g, (label, vs) in enumerate(groups):
        for s, v in enumerate(vs):
            if v is None:
                continue
            h = height * v / top
            x = x0 + g * slot + slot * 0.1 + s * bar
            why = not_compared.get((g, s))
            fill = f'{NOT_COMPARED_FILL}" stroke="#8c8c8c' if why else series[s][1]
            tip = f'{escape(label)} {escape(series[s][0])}: {v:.3f}' + (' (not compared with stock)' if why else '')
            out.append(f'<rect x="{x:.1f}" y="{y0 + height - h:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                       f'fill="{fill}"><title>{tip}</title></rect>')
        out.append(f'<text x="{x0 + g * slot + slot / 2:.1f}" y="{y0 + height + 13}" font-size="10" '
                   f'text-anchor="middle">{escape(label)}</text>')
    lx, ly = x0, y0 + height + 22
    for name, colour in series:
        step = 14 + 6 * len(name) + 16
        if lx > x0 and lx + step > x0 + width:
            # Long labels (a run's conditions) wrap to the next legend line.
            lx, ly = x0, ly + 15
        out.append(f'<rect x="{lx}" y="{ly}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{lx + 14}" y="{ly + 9}" font-size="11">{escape(name)}</text>')
        lx += step
    if not_compared:
        lx, ly = x0, ly + 15
        out.append(f'<rect x="{lx}" y="{ly}" width="10" height="10" fill="{NOT_COMPARED_FILL}" '
                   f'stroke="#8c8c8c"/>')
        notes = sorted({f"{groups[g][0]}: {why}" for (g, _), why in not_compared.items()})
        out.append(f'<text x="{lx + 14}" y="{ly + 9}" font-size="11">not compared with stock, measured'
                   f' only: {escape("; ".join(notes))}</text>')
    return out


def not_compared_reason(output):
    """The short reason of a not-compared row's output ("not compared: its 10 s ... windows do not fire ...")."""
    reason = output.removeprefix("not compared: ")
    return reason.split(" (")[0].split(", so")[0]


def recovery_groups(data):
    """(label, [stock s, columnar s]) per recovery query: the medians of its paired rounds; a query whose
    recovery check failed keeps its place, labelled FAIL, with the bars of whatever cells passed."""
    groups = []
    for row in data.get("recovery", []):
        label = row["query"] + ("" if row["ok"] else " FAIL")
        groups.append((label, [row["stockRecoverySeconds"], row["columnarRecoverySeconds"]]))
    if groups or "recovery" in data:
        return groups
    # Reports before the recovery summary: one recovery cell per variant, round -1.
    recovery = {}
    for cell in data["cells"]:
        if cell["round"] < 0 and cell["recoverySeconds"] is not None:
            recovery.setdefault(cell["query"], {})[cell["variant"]] = cell["recoverySeconds"]
    return [(q, [v.get("stock"), v.get("columnar")]) for q, v in recovery.items()]


def optional(index):
    """The JSON of the optional file argument at index, or None when it is absent or "-"."""
    if len(sys.argv) <= index or sys.argv[index] == "-":
        return None
    return json.load(open(sys.argv[index]))


def main():
    data = json.load(open(sys.argv[1]))
    summary = data["summary"]
    queries = []
    for row in summary:
        if row["query"] not in queries:
            queries.append(row["query"])

    on_data = optional(4) or data

    def conditions(d):
        """How a run's cells were measured: its events and whether each cell's JVM ran the job once before."""
        return f'{d["events"]:,} events, ' + ("warm JVM" if d.get("jvmWarmUp") else "fresh JVM")

    off_label, on_label = f"mb off, {conditions(data)}", f"mb on, {conditions(on_data)}"

    def pick(q, mb, key):
        for row in (on_data if mb else data)["summary"]:
            if row["query"] == q and row["miniBatch"] == mb and row["ok"]:
                return row[key]
        return None

    steady = data.get("steady")

    def why_not_compared(q, mb):
        """The reason a passing row's output was not compared with stock's; None if it was (or did not pass)."""
        for row in (on_data if mb else data)["summary"]:
            if row["query"] == q and row["miniBatch"] == mb and row["ok"] and not row.get("compared", True):
                return not_compared_reason(row["output"])
        return None

    def hatched(groups, settings):
        """{(group, series): why} for the series (one mini-batch setting each) of not-compared rows."""
        marks = {}
        for g, (q, values) in enumerate(groups):
            for s, mb in enumerate(settings):
                why = why_not_compared(q, mb)
                if why and values[s] is not None:
                    marks[(g, s)] = why
        return marks

    def pick_steady(q, mb):
        for row in (on_data if mb else data).get("steady") or []:
            if row["query"] == q and row["miniBatch"] == mb and row["ok"]:
                return row["steadyRatio"]
        return None

    if steady:
        ratio = [(q, [pick(q, False, "ratio"), pick_steady(q, False), pick(q, True, "ratio"), pick_steady(q, True)])
                 for q in queries]
        ratio_series = [(f"job time, {off_label}", COLUMNAR), (f"steady, {off_label}", COLUMNAR_STEADY),
                        (f"job time, {on_label}", ON), (f"steady, {on_label}", ON_STEADY)]
        ratio_title = ("Throughput ratio columnar / stock by job time and by steady-state rate (median of paired"
                       " rounds; dashed: 1.0)")
        ratio_settings = [False, False, True, True]
    else:
        ratio = [(q, [pick(q, False, "ratio"), pick(q, True, "ratio")]) for q in queries]
        ratio_series = [(off_label, COLUMNAR), (on_label, ON)]
        ratio_title = "Throughput ratio columnar / stock (median of paired rounds; dashed: 1.0)"
        ratio_settings = [False, True]
    ckpt_data = optional(5) or data

    def pick_checkpoint(q, key):
        for row in ckpt_data["summary"]:
            if row["query"] == q and not row["miniBatch"] and row["ok"]:
                return row[key]
        return None

    ckpt_queries = [q for q in queries if pick_checkpoint(q, "stockCheckpointP50Ms") is not None]
    ckpt = [(q, [pick_checkpoint(q, "stockCheckpointP50Ms"), pick_checkpoint(q, "columnarCheckpointP50Ms")])
            for q in ckpt_queries]
    ckpt_title = "Checkpoint duration p50, ms (mini-batch off" + (
        f"; run {ckpt_data['stamp']}, {conditions(ckpt_data)})" if ckpt_data is not data else ")")
    recovery_data = optional(3) or data
    rec = recovery_groups(recovery_data)

    rate_data = optional(6)
    rec_rate = recovery_groups(rate_data) if rate_data else []

    width = max(700, 42 * len(queries) + 100)
    panel = 170
    rows = 4 if rec_rate else 3
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{rows * (panel + 80) + 40}" '
           f'font-family="sans-serif">', HATCH, '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="18" font-size="14" font-weight="bold">Nexmark, exactly-once Kafka in and out: '
           f'columnar-kafka vs stock Flink (parallelism {data["parallelism"]}, '
           f'{data["rounds"]} paired rounds, 2-core machine, '
           f'{"busy" if data.get("machineBusyAtStart") else "idle"} at the start'
           + (f'; mini-batch off: run {data["stamp"]}, on: run {on_data["stamp"]}' if on_data is not data else '')
           + ')</text>']
    y = 60
    svg += bars(60, y, width - 80, panel, ratio_title, ratio, ratio_series, "×", ref=1.0,
                not_compared=hatched(ratio, ratio_settings))
    y += panel + 80
    svg += bars(60, y, width - 80 if ckpt_data is data else min(width - 80, 42 * len(ckpt) + 100), panel, ckpt_title,
                ckpt, [("stock", STOCK), ("columnar", COLUMNAR)], "",
                not_compared=hatched(ckpt, [False, False]) if ckpt_data is data else None)
    y += panel + 80
    if rec:
        svg += bars(60, y, min(width - 80, 120 * len(rec) + 60), panel,
                    f"Recovery{' at full speed' if rec_rate else ''}: TaskManager failure to caught up, s (median of"
                    f" {recovery_data['rounds']} paired rounds, {recovery_data['events']:,} events)", rec,
                    [("stock", STOCK), ("columnar", COLUMNAR)], "")
    y += panel + 80
    if rec_rate:
        svg += bars(60, y, min(width - 80, 120 * len(rec_rate) + 60), panel,
                    f"Recovery at an equal input rate, {rate_data['rate']:,.0f} events/s: failure to back at the live"
                    f" input, s (median of {rate_data['rounds']} paired rounds; run {rate_data['stamp']})", rec_rate,
                    [("stock", STOCK), ("columnar", COLUMNAR)], "")
    svg.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
