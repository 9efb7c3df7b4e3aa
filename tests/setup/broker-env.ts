/**
 * The product's OANDA settings (DESIGN.md configuration names) pointing both environments, REST and
 * streams, at `brokerUrl`: a simulator, or a counting proxy in front of one. Used by the test servers
 * and the benches.
 */
export function brokerEnv(brokerUrl: string): Record<string, string> {
  return {
    OANDA_MODE: "oanda",
    OANDA_PRACTICE_API_URL: `${brokerUrl}/practice`,
    OANDA_PRACTICE_STREAM_URL: `${brokerUrl}/practice`,
    OANDA_LIVE_API_URL: `${brokerUrl}/live`,
    OANDA_LIVE_STREAM_URL: `${brokerUrl}/live`,
  };
}
