/** /admin/* — sub-pages of the admin area arrive later; the parent route guards access. */
export default function AdminSubPage() {
  return null;
}
