/** The webhook benchmark's bodies are what the real webhook allows and converts, not 400s or denials. */
import { describe, expect, it } from 'vitest'
import { HUB_API_VERSION } from '../../../src/api/group'
import { silentLogger } from '../../../src/observability/logger'
import { createMetricsRegistry } from '../../../src/observability/metrics'
import { builtInProviderSpecSchemas } from '../../../src/providers/schemas'
import { createWebhookApp } from '../../../src/webhooks/app'
import { createWebhookHandlers } from '../../../src/webhooks/review-endpoints'
import {
  admissionReviews,
  conversionReview,
  conversionReviewDown,
  machine,
} from '../../bench/lib/review-bodies'
import { servedApp } from '../../harness/served-app'

const handlers = createWebhookHandlers({
  logger: silentLogger(),
  metrics: createMetricsRegistry({ defaultMetrics: false }),
  providerSchemas: builtInProviderSpecSchemas,
})
const app = servedApp(createWebhookApp(async () => handlers, silentLogger()).app)

interface Answer {
  response: {
    allowed?: boolean
    result?: { status: string }
    convertedObjects?: unknown[]
  }
}

async function post(path: string, body: unknown) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Answer }
}

describe('benchmark review bodies', () => {
  it.each(['/validate', '/mutate'])(
    '%s allows the Machine, MachineSet and MachineDeployment',
    async (path) => {
      for (const review of admissionReviews()) {
        const answer = await post(path, review)
        expect(answer.status).toBe(200)
        expect(answer.body.response.allowed).toBe(true)
      }
    },
  )

  it('/convert takes the batch down to v1alpha1 and back', async () => {
    const stored = Array.from({ length: 3 }, (_, i) => machine(`web-${i}`, 'default', true))
    const down = await post('/convert', conversionReviewDown(3))
    expect(down.body.response.result?.status).toBe('Success')
    const objects = down.body.response.convertedObjects ?? []
    expect(objects).toHaveLength(3)
    const up = await post('/convert', conversionReview(HUB_API_VERSION, objects))
    expect(up.body.response.result?.status).toBe('Success')
    expect(up.body.response.convertedObjects).toEqual(stored)
  })
})
