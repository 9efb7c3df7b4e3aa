/**
 * The graduated kill switch's pure parts (issue 22): the level the AI is at, the levels offered from
 * there, and the executor's gate — the user's 'Parar novas entradas' makes a tick manage-only whatever
 * the licence says.
 */
import { describe, expect, it } from "vitest";
import { manageOnlyMsg, manageOnlyVerdict } from "../../../core/risk";
import { isKillSwitchLevel, KILL_SWITCH_LEVELS, killSwitchOffers, killSwitchState } from "~/lib/kill-switch";

describe("killSwitchState", () => {
  it("reads the level from the loop status", () => {
    expect(killSwitchState({ isActive: true, manageOnlyCode: null, closedAll: false })).toBe("running");
    expect(killSwitchState({ isActive: true, manageOnlyCode: "user", closedAll: false })).toBe("stop_entries");
    expect(killSwitchState({ isActive: true, manageOnlyCode: "licence", closedAll: false })).toBe("licence");
    expect(killSwitchState({ isActive: false, manageOnlyCode: null, closedAll: false })).toBe("pause");
    expect(killSwitchState({ isActive: false, manageOnlyCode: null, closedAll: true })).toBe("close_all");
  });
});

describe("killSwitchOffers", () => {
  it("offers every level while the AI is on, 'Retomar entradas' only after the user's stop, just 'Fechar tudo' once off", () => {
    expect(killSwitchOffers("running")).toEqual({ levels: ["stop_entries", "pause", "close_all"], resume: false });
    expect(killSwitchOffers("licence")).toEqual({ levels: ["stop_entries", "pause", "close_all"], resume: false });
    expect(killSwitchOffers("stop_entries")).toEqual({ levels: ["pause", "close_all"], resume: true });
    expect(killSwitchOffers("pause")).toEqual({ levels: ["close_all"], resume: false });
    expect(killSwitchOffers("close_all")).toEqual({ levels: ["close_all"], resume: false });
  });

  it("knows the three level names only", () => {
    expect(KILL_SWITCH_LEVELS).toEqual(["stop_entries", "pause", "close_all"]);
    for (const l of KILL_SWITCH_LEVELS) expect(isKillSwitchLevel(l)).toBe(true);
    for (const v of ["resume_entries", "PAUSE", "", null, 1, undefined]) expect(isKillSwitchLevel(v)).toBe(false);
  });
});

describe("manageOnlyVerdict with the user's stop", () => {
  it("blocks entries for the user whatever the licence, and says so", () => {
    for (const licence of [true, false]) {
      const v = manageOnlyVerdict(licence, true);
      expect(v).toMatchObject({ allowed: false, code: "entries_stopped", manageOnly: "user", reasonMsg: { key: "risk:entriesStopped" } });
      expect(v!.reason).toBe("Novas entradas paradas pelo usuário: a IA não abre novas operações; as abertas seguem com stop e alvo");
    }
    expect(manageOnlyVerdict(true)).toBeNull();
    expect(manageOnlyVerdict(false)).toMatchObject({ manageOnly: "licence" });
    expect(manageOnlyMsg("user")).toEqual({ key: "risk:entriesStopped" });
  });
});
