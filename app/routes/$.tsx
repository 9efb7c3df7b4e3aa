/** Any unknown path redirects to / (PRODUCT.md §2 Routes). */
import { redirect } from "@remix-run/node";

export const loader = () => redirect("/");
export const action = () => redirect("/");
