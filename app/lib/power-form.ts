/**
 * The hero's power form without JavaScript (issue 12, issue 21; app/routes/_index.tsx action): `confirm=1`
 * accepts the pre-flight warnings, `rearm=1` re-arms after a max-drawdown stop. Either field may be
 * absent (the first post of ATIVAR IA carries neither): absent or anything but "1" is false.
 */
import { z } from "zod";

/** The power form's flags as booleans. */
export const powerFormSchema = z.object({
  confirm: z.string().optional().transform((v) => v === "1"),
  rearm: z.string().optional().transform((v) => v === "1"),
});
