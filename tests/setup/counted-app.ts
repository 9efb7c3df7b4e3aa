/**
 * A product process whose broker is the OANDA simulator behind a counting proxy (tests/setup/counting-proxy.ts):
 * the setup of the tests that count broker requests per tick or per page view (issue 13). The simulator and
 * the database come from tests/setup/trading-env.ts; the product reaches the simulator only through the proxy
 * (tests/setup/broker-env.ts). AUTH_RATE_LIMIT is raised (every test user logs in from 127.0.0.1) unless
 * `appEnv` sets it.
 */
import type { AppServer } from "./app-server";
import { brokerEnv } from "./broker-env";
import { startCountingProxy, type CountingProxy } from "./counting-proxy";
import { createTradingEnv, type TradingEnv } from "./trading-env";

export interface CountedApp {
  env: TradingEnv;
  proxy: CountingProxy;
  app: AppServer;
}

/**
 * Starts the simulator (`speed`: simulated seconds per second, 0 = frozen clock) and database, the proxy and
 * the product process with `appEnv` (e.g. WORKERS, LOG_LEVEL). What started is stopped again if a later part fails.
 */
export async function startCountedApp(appEnv: Record<string, string>, opts: { speed?: number } = {}): Promise<CountedApp> {
  const env = await createTradingEnv({ speed: opts.speed ?? 0 });
  let proxy: CountingProxy | undefined;
  try {
    proxy = await startCountingProxy(env.sim.url);
    const app = await env.startApp({ AUTH_RATE_LIMIT: "1000", ...appEnv, ...brokerEnv(proxy.url) });
    return { env, proxy, app };
  } catch (err) {
    await proxy?.close();
    await env.close();
    throw err;
  }
}

/** Stops what `startCountedApp` started (any part may be missing when its start failed). */
export async function stopCountedApp(parts: Partial<CountedApp>): Promise<void> {
  await parts.app?.stop();
  await parts.proxy?.close();
  await parts.env?.close();
}
