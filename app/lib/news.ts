/** The hero's news data (app/services/trading/calendar.server.ts heroNews → app/components/news-card.tsx), shared by server and browser. */

/** One event as the hero shows it (times UTC ISO; the page formats them in the user's time zone). */
export interface HeroNewsEvent {
  title: string;
  currency: string;
  impact: "high" | "medium" | "low" | "non-economic";
  time: string;
  /** Its blackout window. */
  from: string;
  to: string;
  /** Whether the market time is inside its window. */
  active: boolean;
  instruments: string[];
}

export interface HeroNews {
  /** The user's news filter (aiSettings.news.enabled). */
  enabled: boolean;
  /** The market time the list is relative to (the broker's clock: the simulator replays history). */
  now: string;
  events: HeroNewsEvent[];
  /** The running blackout of the user's instruments, when any: the event named, its window start, the end of the blackout. */
  blackout: { event: string; from: string; until: string; instruments: string[] } | null;
}
