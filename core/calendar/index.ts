/** Economic calendar and news blackout (issue 11, ADR 0018): events, index, blackout, parsers. */
export * from "./events";
export * from "./calendar-index";
export * from "./blackout";
export * from "./parse";
