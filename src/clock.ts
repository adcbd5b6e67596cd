/** @module Time as a dependency: planners take `now`, runners use a Clock. */

export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }
