/**
 * The simulator clock: sim time = anchorSim + (realNow − anchorReal) × speed (DESIGN.md §4).
 * Sim time only moves forward; re-anchoring keeps the current sim time.
 */

export interface SimClockState {
  /** Sim epoch ms at the anchor. */
  anchorSim: number;
  /** Real epoch ms at the anchor. */
  anchorReal: number;
  speed: number;
}

/** Sim clock driven by a real-time source (`realNow`, epoch ms). */
export class SimClock {
  private s: SimClockState;
  private adjustments = 0;
  constructor(private readonly realNow: () => number, startSimMs: number, speed = 1) {
    if (!(speed >= 0) || !Number.isFinite(speed)) throw new Error("speed must be a finite number ≥ 0");
    this.s = { anchorSim: startSimMs, anchorReal: realNow(), speed };
  }

  /** Current sim time, epoch ms (integer). */
  now(): number {
    return Math.floor(this.s.anchorSim + (this.realNow() - this.s.anchorReal) * this.s.speed);
  }

  /**
   * How many times the clock was re-anchored (a jump or a new speed): a broker client sharing
   * quotes across accounts (app/services/broker/quote-cache.server.ts) drops those read before a change.
   */
  get generation(): number {
    return this.adjustments;
  }

  /** Current multiplier of real time. */
  get speed(): number {
    return this.s.speed;
  }

  /**
   * Re-anchors at the current sim time, optionally jumping forward and/or changing the speed.
   * @param advanceSeconds sim seconds to jump forward (≥ 0)
   * @throws Error on a negative advance or a negative/non-finite speed
   */
  adjust(opts: { speed?: number; advanceSeconds?: number }): void {
    const adv = opts.advanceSeconds ?? 0;
    if (!(adv >= 0) || !Number.isFinite(adv)) throw new Error("advanceSeconds must be ≥ 0");
    const speed = opts.speed ?? this.s.speed;
    if (!(speed >= 0) || !Number.isFinite(speed)) throw new Error("speed must be ≥ 0");
    this.s = { anchorSim: this.now() + Math.round(adv * 1000), anchorReal: this.realNow(), speed };
    this.adjustments++;
  }
}
