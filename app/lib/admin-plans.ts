/**
 * The admin plan form and API body (PRODUCT.md §3 Plan, §5 "Admin plan form", §7 Admin plans; issue
 * 10): one zod schema for POST/PUT /api/admin/plans and the /admin/planos form. Price in whole cents
 * (the page form works in whole units with two decimals and multiplies by 100: `unitsToCents`);
 * currency an ISO code (default BRL); duration ≥ 1 day (default 30); interval month|year with a
 * count (Stripe allows at most 3 years); features are strings, empty ones dropped; and the statuses
 * the admin subscription list filters by. Messages are
 * translatable (`zMsg`, keys of core's `admin-plans` catalog). Pure: safe on server and client.
 */
import { z } from "zod";
import { zMsg } from "../../core/i18n/zod-message";

/** Most cents a Stripe price may have (8 digits). */
export const MAX_PRICE_CENTS = 99_999_999;
/** Most features a plan may list, and characters per feature. */
export const MAX_FEATURES = 20;
export const MAX_FEATURE_LENGTH = 200;

const nameRequired = zMsg("admin-plans:name.required");
const descriptionRequired = zMsg("admin-plans:description.required");
const priceInvalid = zMsg("admin-plans:price.invalid");
const durationInvalid = zMsg("admin-plans:durationDays");
const countInvalid = zMsg("admin-plans:intervalCount");
const featuresInvalid = zMsg("admin-plans:features");

/** The plan fields an admin writes (POST and PUT bodies; `createdBy` is ignored: the admin is the caller). */
export const planInputSchema = z
  .object({
    name: z.string({ error: nameRequired }).trim().min(1, { error: nameRequired }).max(100, { error: zMsg("admin-plans:name.tooLong") }),
    description: z.string({ error: descriptionRequired }).trim().min(1, { error: descriptionRequired }).max(1000, { error: zMsg("admin-plans:description.tooLong") }),
    price: z
      .number({ error: priceInvalid })
      .int({ error: priceInvalid })
      .min(0, { error: priceInvalid })
      .max(MAX_PRICE_CENTS, { error: zMsg("admin-plans:price.tooHigh") }),
    currency: z
      .string({ error: zMsg("admin-plans:currency") })
      .trim()
      .regex(/^[A-Za-z]{3}$/, { error: zMsg("admin-plans:currency") })
      .transform((c) => c.toUpperCase())
      .default("BRL"),
    durationDays: z.number({ error: durationInvalid }).int({ error: durationInvalid }).min(1, { error: durationInvalid }).max(3650, { error: durationInvalid }).default(30),
    interval: z.enum(["month", "year"], { error: zMsg("admin-plans:interval") }).default("month"),
    intervalCount: z.number({ error: countInvalid }).int({ error: countInvalid }).min(1, { error: countInvalid }).max(36, { error: countInvalid }).default(1),
    features: z
      .array(z.string({ error: featuresInvalid }).max(MAX_FEATURE_LENGTH, { error: featuresInvalid }), { error: featuresInvalid })
      .transform((list) => list.map((f) => f.trim()).filter((f) => f.length > 0))
      .pipe(z.array(z.string()).max(MAX_FEATURES, { error: featuresInvalid }))
      .default([]),
    isHighlighted: z.boolean({ error: zMsg("admin-plans:isHighlighted") }).default(false),
    isActive: z.boolean({ error: zMsg("admin-plans:isActive") }).optional(),
  })
  .refine((p) => (p.interval === "year" ? p.intervalCount <= 3 : p.intervalCount <= 36), { error: zMsg("admin-plans:intervalTooLong"), path: ["intervalCount"] });

/** A validated plan body. */
export type PlanInput = z.infer<typeof planInputSchema>;

/**
 * A price typed in whole units with up to two decimals ('97', '97.5', '97,50', '1.234,56' is refused:
 * no thousands separators) as cents; null when it is not such a number.
 */
export function unitsToCents(text: string): number | null {
  const t = text.trim().replace(",", ".");
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ""] = t.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

/** Cents as the form's units text with two decimals (9700 → '97.00'). */
export function centsToUnits(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** Statuses the admin subscription list can be filtered by (Stripe's, plus 'all'). */
export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "unpaid", "incomplete", "incomplete_expired", "canceled", "paused", "all"] as const;
export type SubscriptionStatusFilter = (typeof SUBSCRIPTION_STATUSES)[number];
