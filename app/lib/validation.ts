/**
 * Form and body schemas shared by server actions, the JSON API and the browser (one schema per form,
 * DESIGN.md §2). Rules and messages from PRODUCT.md §5 and §8. Messages are translatable
 * (`zMsg`, core/i18n/zod-message.ts): an issue's text is its Portuguese rendering, decoded back into
 * a message where the reader's language is known.
 */
import { z } from "zod";
import { zMsg } from "../../core/i18n/zod-message";

/** Password rules with their live labels (PRODUCT.md §5). */
export const PASSWORD_RULES = [
  { key: "length", label: "Pelo menos 8 caracteres", test: (p: string) => p.length >= 8 },
  { key: "upper", label: "Letra maiúscula", test: (p: string) => /[A-Z]/.test(p) },
  { key: "lower", label: "Letra minúscula", test: (p: string) => /[a-z]/.test(p) },
  { key: "digit", label: "Número", test: (p: string) => /\d/.test(p) },
] as const;

export const emailField = z
  .string({ error: zMsg("validation:email.required") })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: zMsg("validation:email.invalid") }));

export const passwordField = z
  .string({ error: zMsg("validation:password.required") })
  .min(8, { error: zMsg("validation:password.min", { min: 8 }) })
  .regex(/[A-Z]/, { error: zMsg("validation:password.upper") })
  .regex(/[a-z]/, { error: zMsg("validation:password.lower") })
  .regex(/\d/, { error: zMsg("validation:password.digit") });

const FIRST_NAME_MESSAGE = zMsg("validation:firstName");
const LAST_NAME_MESSAGE = zMsg("validation:lastName");

/** Register: first/last name (or a full name split in two), e-mail trimmed and lowercased, strong password. */
export const registerSchema = z
  .object({
    firstName: z.string().trim().optional(),
    lastName: z.string().trim().optional(),
    name: z.string().trim().optional(),
    email: emailField,
    password: passwordField,
  })
  .transform((v, ctx) => {
    let { firstName, lastName } = v;
    if (!firstName && !lastName && v.name) {
      const [first, ...rest] = v.name.split(/\s+/);
      firstName = first;
      lastName = rest.join(" ");
    }
    if (!firstName) {
      ctx.addIssue({ code: "custom", message: FIRST_NAME_MESSAGE, path: ["firstName"] });
      return z.NEVER;
    }
    if (!lastName) {
      ctx.addIssue({ code: "custom", message: LAST_NAME_MESSAGE, path: ["lastName"] });
      return z.NEVER;
    }
    return { firstName, lastName, email: v.email, password: v.password };
  });

/** Login does not check password strength (PRODUCT.md §5). */
export const loginSchema = z.object({
  email: emailField,
  password: z.string({ error: zMsg("validation:password.required") }).min(1, { error: zMsg("validation:password.required") }),
  remember: z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((v) => v === undefined || v === true || v === "on" || v === "true"),
});

export const environmentField = z.enum(["practice", "live"], { error: zMsg("validation:environment") });

/**
 * Broker token test (wizard step 2). A token is sent in an HTTP header, so one with characters a
 * header cannot carry (spaces, control characters, non-ASCII) is refused here with the broker's
 * 'invalid token' message (PRODUCT.md §8) instead of failing the request to the broker (a 502 before).
 */
export const testTokenSchema = z.object({
  token: z
    .string({ error: zMsg("validation:token") })
    .trim()
    .min(1, { error: zMsg("validation:token") })
    .regex(/^[\x21-\x7e]+$/, { error: zMsg("broker:auth") }),
  environment: environmentField.default("practice"),
});

/** Broker connect (wizard step 3). */
export const connectSchema = testTokenSchema.extend({
  accountId: z.string({ error: zMsg("validation:account") }).trim().min(1, { error: zMsg("validation:account") }),
});

/** Version of the Terms of Use / Privacy Policy recorded when a user accepts them (users.terms_version). */
export const TERMS_VERSION = "2026-01";

/** Forgot-password and resend-confirmation bodies. */
export const emailRequestSchema = z.object({ email: emailField });

/** Terms step: the checkbox must be ticked (the server checks it even when the scroll gate could not run). */
export const termsSchema = z.object({
  accept: z.literal("on", { error: zMsg("validation:terms") }),
});

/** Reset-password form: the token from the link, a strong new password and its confirmation. */
export const resetPasswordSchema = z
  .object({
    token: z.string({ error: zMsg("validation:resetLink") }).min(1, { error: zMsg("validation:resetLink") }),
    password: passwordField,
    confirm: z.string({ error: zMsg("validation:password.confirm") }),
  })
  .refine((v) => v.password === v.confirm, { message: zMsg("validation:password.mismatch"), path: ["confirm"] });
