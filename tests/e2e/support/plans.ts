/** The plan the billing specs subscribe to. */
import { withDb } from "./trading";

/**
 * Seeds "Mensal" (R$ 97,00/mês, highlighted) unless an active 'Mensal' exists. The app seeds it only on its
 * embedded database; on TEST_DATABASE_URL's server the specs seed the same plan, as an admin would create it.
 */
export async function seedMonthlyPlan(): Promise<void> {
  await withDb(
    (sql) => sql`insert into plans (name, description, price_cents, currency, duration_days, interval, interval_count, features, is_highlighted, is_active)
      select 'Mensal', 'Acesso completo à Forex IA, renovado todo mês. Cancele quando quiser.', 9700, 'BRL', 30, 'month', 1,
        ${["Trading automatizado com IA", "Análise de mercado em tempo real", "Gestão de risco avançada", "Notificações push personalizadas"]}, true, true
      where not exists (select 1 from plans where is_active and name = 'Mensal')`,
  );
}
