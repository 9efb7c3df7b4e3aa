/** Stripe's error replies (`{error: {type, code, message, param, doc_url}}`) for the Stripe simulator. */

/** An error the simulator answers with Stripe's status code and error body. */
export class StripeSimError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }

  /** Stripe's error body. */
  body(): { error: Record<string, string> } {
    const error: Record<string, string> = { type: this.type, message: this.message };
    if (this.code) {
      error.code = this.code;
      error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, "-")}`;
    }
    if (this.param) error.param = this.param;
    return { error };
  }
}

/** 400 `parameter_missing` for a required parameter. */
export const missingParam = (param: string) =>
  new StripeSimError(400, "invalid_request_error", `Missing required param: ${param}.`, "parameter_missing", param);

/** 400 `parameter_invalid_*` for a parameter with a bad value. */
export const invalidParam = (param: string, message: string, code = "parameter_invalid_string") =>
  new StripeSimError(400, "invalid_request_error", message, code, param);

/** 404 `resource_missing` as Stripe words it ("No such customer: 'cus_x'"). */
export const noSuch = (what: string, id: string, param = "id") =>
  new StripeSimError(404, "invalid_request_error", `No such ${what}: '${id}'`, "resource_missing", param);
