/** The hero's no-JavaScript power form (app/lib/power-form.ts): the first post carries no flag and must parse. */
import { describe, expect, it } from "vitest";
import { powerFormSchema } from "../../../app/lib/power-form";

describe("power form flags", () => {
  it("a post without confirm or rearm (the first ATIVAR IA) gives both false", () => {
    expect(powerFormSchema.parse({ intent: "start" })).toEqual({ confirm: false, rearm: false });
  });
  it("only '1' turns a flag on", () => {
    expect(powerFormSchema.parse({ confirm: "1", rearm: "0" })).toEqual({ confirm: true, rearm: false });
    expect(powerFormSchema.parse({ rearm: "1" })).toEqual({ confirm: false, rearm: true });
  });
});
