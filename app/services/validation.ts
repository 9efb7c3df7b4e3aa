/**
 * Form and body schemas shared by server actions, the JSON API and the browser (one schema per form,
 * DESIGN.md §2). Rules and messages from PRODUCT.md §5 and §8.
 */
import { z } from "zod";

/** Password rules with their live labels (PRODUCT.md §5). */
export const PASSWORD_RULES = [
  { key: "length", label: "Pelo menos 8 caracteres", test: (p: string) => p.length >= 8 },
  { key: "upper", label: "Letra maiúscula", test: (p: string) => /[A-Z]/.test(p) },
  { key: "lower", label: "Letra minúscula", test: (p: string) => /[a-z]/.test(p) },
  { key: "digit", label: "Número", test: (p: string) => /\d/.test(p) },
] as const;

export const emailField = z
  .string({ error: "Informe seu e-mail." })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "E-mail inválido." }));

export const passwordField = z
  .string({ error: "Informe sua senha." })
  .min(8, { error: "A senha deve ter pelo menos 8 caracteres." })
  .regex(/[A-Z]/, { error: "A senha deve ter uma letra maiúscula." })
  .regex(/[a-z]/, { error: "A senha deve ter uma letra minúscula." })
  .regex(/\d/, { error: "A senha deve ter um número." });

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
      ctx.addIssue({ code: "custom", message: "Informe seu nome.", path: ["firstName"] });
      return z.NEVER;
    }
    if (!lastName) {
      ctx.addIssue({ code: "custom", message: "Informe seu sobrenome.", path: ["lastName"] });
      return z.NEVER;
    }
    return { firstName, lastName, email: v.email, password: v.password };
  });

/** Login does not check password strength (PRODUCT.md §5). */
export const loginSchema = z.object({
  email: emailField,
  password: z.string({ error: "Informe sua senha." }).min(1, { error: "Informe sua senha." }),
  remember: z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((v) => v === undefined || v === true || v === "on" || v === "true"),
});

export const environmentField = z.enum(["practice", "live"], { error: "Ambiente inválido: use practice ou live." });

/** Broker token test (wizard step 2). */
export const testTokenSchema = z.object({
  token: z.string({ error: "Por favor, insira seu token da Oanda" }).trim().min(1, { error: "Por favor, insira seu token da Oanda" }),
  environment: environmentField.default("practice"),
});

/** Broker connect (wizard step 3). */
export const connectSchema = testTokenSchema.extend({
  accountId: z.string({ error: "Por favor, selecione uma conta" }).trim().min(1, { error: "Por favor, selecione uma conta" }),
});

/** Version of the Terms of Use / Privacy Policy recorded when a user accepts them (users.terms_version). */
export const TERMS_VERSION = "2026-01";

/** Forgot-password and resend-confirmation bodies. */
export const emailRequestSchema = z.object({ email: emailField });

/** Terms step: the checkbox must be ticked (the server checks it even when the scroll gate could not run). */
export const termsSchema = z.object({
  accept: z.literal("on", { error: "Você precisa aceitar os Termos de Uso e a Política de Privacidade." }),
});

/** Reset-password form: the token from the link, a strong new password and its confirmation. */
export const resetPasswordSchema = z
  .object({
    token: z.string({ error: "Link de redefinição inválido." }).min(1, { error: "Link de redefinição inválido." }),
    password: passwordField,
    confirm: z.string({ error: "Confirme a nova senha." }),
  })
  .refine((v) => v.password === v.confirm, { message: "As senhas não coincidem.", path: ["confirm"] });
