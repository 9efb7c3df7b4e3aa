/**
 * Issue 24, "Dashboards and alerts as files": deploy/prometheus/alerts.yml loads (parsed here with `yaml`;
 * also with `promtool check rules` when the machine has promtool), every rule has an expression, a `for`,
 * a severity and annotations, and every metric an alert or a dashboard panel names exists in the registry
 * (app/services/platform/metrics.server.ts) — a renamed metric cannot leave an alert silently dead. The
 * compose file's `monitoring` profile scrapes the services that exist, with the files that exist.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { metricNames } from "../../../app/services/platform/metrics.server";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (p: string) => readFileSync(path.join(root, p), "utf8");

interface Rule {
  alert?: string;
  expr?: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Series Prometheus itself makes (not in our registry). */
const PROMETHEUS_SERIES = new Set(["up"]);

/**
 * The metric names a PromQL expression reads: identifiers followed by a selector `{`, a range `[`, or standing
 * alone as a series, minus functions, keywords and label names (inside `{…}`/`by (…)`). Histogram series
 * (`_bucket`, `_sum`, `_count`) map to their family.
 */
function metricsIn(expr: string): string[] {
  const noStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const noLabels = noStrings.replace(/\{[^}]*\}/g, "{}").replace(/\[[^\]]*\]/g, "[]").replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  const names = new Set<string>();
  for (const m of noLabels.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(\s*\()?/g)) {
    if (m[2]) continue; // a function call
    const id = m[1]!;
    if (/^(and|or|unless|bool|offset|le|inf|nan)$/i.test(id) || /^\d/.test(id)) continue;
    if (/^(\d+[smhdwy])+$/.test(id)) continue; // a duration
    names.add(id);
  }
  return [...names];
}

/** The family of a sample name (a histogram's `_bucket`/`_sum`/`_count`), when the registry has it. */
function family(name: string, known: Set<string>): string | undefined {
  if (known.has(name) || PROMETHEUS_SERIES.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, "");
  return known.has(base) ? base : undefined;
}

describe("alert rules", () => {
  const doc = parse(read("deploy/prometheus/alerts.yml")) as { groups: { name: string; rules: Rule[] }[] };
  const rules = doc.groups.flatMap((g) => g.rules);
  const known = new Set(metricNames());

  it("every rule has expr, for, labels.severity and a summary and description", () => {
    expect(rules.length).toBeGreaterThanOrEqual(5);
    for (const r of rules) {
      expect(r.alert, JSON.stringify(r)).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      expect(typeof r.expr, r.alert).toBe("string");
      expect(r.for, r.alert).toMatch(/^\d+[smh]$/);
      expect(["critical", "warning", "info"], r.alert).toContain(r.labels?.severity);
      expect(r.annotations?.summary, r.alert).toBeTruthy();
      expect(r.annotations?.description, r.alert).toBeTruthy();
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  it("covers what the issue asks: late ticks, broker errors, dead letters, webhook failures, order latency p99", () => {
    const exprs = rules.map((r) => r.expr!).join("\n");
    expect(exprs).toContain("forexia_tick_lag_seconds_bucket");
    expect(exprs).toMatch(/forexia_broker_requests_total\{status=~"429\|5\.\.\|timeout\|network"\}/);
    expect(exprs).toContain("forexia_queue_dead_letters) > 0");
    expect(exprs).toContain("forexia_stripe_webhooks_failed_total");
    expect(exprs).toMatch(/histogram_quantile\(0\.99, .*forexia_decision_to_order_seconds_bucket/);
  });

  it("every metric an expression names exists in the registry", () => {
    expect(metricsIn('sum by (le, instance) (rate(forexia_tick_lag_seconds_bucket{x="a b"}[5m])) > 120')).toEqual(["forexia_tick_lag_seconds_bucket"]);
    for (const r of rules) {
      const names = metricsIn(r.expr!);
      expect(names.length, r.alert).toBeGreaterThan(0);
      for (const n of names) expect(family(n, known), `${r.alert}: ${n}`).toBeDefined();
    }
  });

  it.runIf(spawnSync("promtool", ["--version"]).status === 0)("promtool checks the rules", () => {
    execFileSync("promtool", ["check", "rules", path.join(root, "deploy/prometheus/alerts.yml")], { stdio: "pipe" });
  });
});

describe("dashboard and compose profile", () => {
  it("every dashboard panel queries metrics of the registry", () => {
    const known = new Set(metricNames());
    const dash = JSON.parse(read("deploy/grafana/dashboards/forex-ia.json")) as { panels: { title: string; type: string; targets?: { expr: string }[] }[] };
    const graphs = dash.panels.filter((p) => p.type !== "row");
    expect(graphs.length).toBeGreaterThanOrEqual(15);
    const used = new Set<string>();
    for (const p of graphs)
      for (const t of p.targets ?? [])
        for (const n of metricsIn(t.expr)) {
          const f = family(n, known);
          expect(f, `${p.title}: ${n}`).toBeDefined();
          used.add(f!);
        }
    // Every product family has a panel.
    for (const n of known) if (n.startsWith("forexia_")) expect(used, n).toContain(n);
  });

  it("the monitoring profile runs Prometheus and Grafana on files that exist, scraping the compose's app services", () => {
    const compose = parse(read("compose.yaml")) as { services: Record<string, { profiles?: string[]; volumes?: string[]; environment?: Record<string, string> }> };
    for (const name of ["prometheus", "grafana"]) {
      const s = compose.services[name]!;
      expect(s.profiles, name).toEqual(["monitoring"]);
      for (const v of s.volumes ?? []) {
        const host = v.split(":")[0]!;
        if (host.startsWith(".")) expect(existsSync(path.join(root, host)), v).toBe(true);
      }
    }
    // The app services stay outside the profile and export on the port Prometheus scrapes.
    expect(compose.services.app!.profiles).toBeUndefined();
    const prom = parse(read("deploy/prometheus/prometheus.yml")) as { rule_files: string[]; scrape_configs: { dns_sd_configs: { names: string[]; port: number }[] }[] };
    const targets = prom.scrape_configs.flatMap((c) => c.dns_sd_configs);
    expect(targets.flatMap((t) => t.names).sort()).toEqual(["app", "web"]);
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(["app", "web"]));
    const metricsPort = read("compose.yaml").match(/METRICS_PORT: "(\d+)"/)?.[1];
    for (const t of targets) expect(String(t.port)).toBe(metricsPort);
    expect(prom.rule_files).toEqual(["/etc/prometheus/alerts.yml"]);
  });
});
