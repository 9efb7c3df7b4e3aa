/**
 * Stored settings normalised once per distinct value (issue 24, app/services/trading/settings.server.ts): each
 * read answers the same settings as `normaliseLoadedSettings` and a copy of its own, so a caller changing the
 * settings it got (a tick, a save merging a patch) changes nobody else's.
 */
import { describe, expect, it } from "vitest";
import { normaliseLoadedSettings } from "../../../core/settings";
import { settingsFromRow } from "../../../app/services/trading/settings.server";

describe("settingsFromRow", () => {
  it("answers the normalised settings, a fresh copy each time", () => {
    const stored = { riskPerTrade: 1.5, instruments: ["EUR_USD"], aiSettings: { tradingStyle: "swing" } };
    const a = settingsFromRow(stored);
    expect(a).toEqual(normaliseLoadedSettings(stored));
    (a.instruments as string[]).push("GBP_USD");
    a.aiSettings.tradingStyle = "scalper";
    const b = settingsFromRow(structuredClone(stored));
    expect(b).toEqual(normaliseLoadedSettings(stored));
    expect(b).not.toBe(a);
    expect(settingsFromRow(undefined)).toEqual(normaliseLoadedSettings({}));
  });
});
