/**
 * The one decimal type of the product: prices, units and money are `Decimal`, never JS floats
 * (DESIGN.md §6). OANDA sends them as decimal strings; we keep them as strings on the wire and in
 * JSON, `numeric` in PostgreSQL, and `Decimal` in arithmetic.
 */
import DecimalJs from "decimal.js";

export const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP });
export type Decimal = DecimalJs;
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace Decimal {
  type Value = DecimalJs.Value;
}

/** Money in the account currency with 4 decimals, as OANDA shows account amounts ("97804.9448"). */
export function formatMoney(value: Decimal.Value): string {
  return new Decimal(value).toFixed(4);
}
