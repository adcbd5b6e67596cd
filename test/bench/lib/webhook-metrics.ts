/** @module Reads the webhook child's own request metrics: how many /convert calls, how long. */
import { getText } from './http-post'

/** Count and total seconds of answered /convert requests so far. */
export interface ConvertTotals {
  calls: number
  seconds: number
}

const metric = 'machine_api_webhook_request_duration_seconds'

/** Parses the /convert totals out of Prometheus text. */
export function convertTotals(text: string): ConvertTotals {
  const value = (suffix: string) => {
    let total = 0
    for (const line of text.split('\n')) {
      if (line.startsWith(`${metric}_${suffix}{`) && line.includes('endpoint="/convert"')) {
        total += Number(line.slice(line.lastIndexOf(' ') + 1))
      }
    }
    return total
  }
  return { calls: value('count'), seconds: value('sum') }
}

/** The webhook's /convert totals now. */
export async function readConvertTotals(webhookUrl: string, ca: Buffer): Promise<ConvertTotals> {
  return convertTotals(await getText(`${webhookUrl}/metrics`, ca))
}
