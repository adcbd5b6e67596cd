/** The committed webhook configurations stay in step with the API: all kinds, scoped, safe settings. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { API_GROUP, HUB_VERSION } from '../../../src/api/group'
import { KIND_DEFINITIONS } from '../../../src/api/kinds'
import { statusWebhook } from '../../../src/dev/install-api'
import {
  providerStatusWriteMatchConditions,
  specWriteMatchConditions,
} from '../../../src/webhooks/match-conditions'

const base = join(import.meta.dirname, '..', '..', '..', 'infra', 'webhook', 'base')

type Webhook = {
  rules: { apiGroups: string[]; apiVersions: string[]; resources: string[] }[]
  failurePolicy: string
  sideEffects: string
  matchPolicy: string
  timeoutSeconds: number
  matchConditions: { name: string; expression: string }[]
  clientConfig: { service: { path: string } }
}

describe.each([
  ['mutating-webhook-configuration.yaml', '/mutate'],
  ['validating-webhook-configuration.yaml', '/validate'],
])('%s', (file, path) => {
  const webhook = (parse(readFileSync(join(base, file), 'utf8')) as { webhooks: Webhook[] })
    .webhooks[0] as Webhook

  it('covers every kind of our group and nothing else', () => {
    expect(webhook.rules).toHaveLength(1)
    expect(webhook.rules[0]?.apiGroups).toEqual([API_GROUP])
    expect(webhook.rules[0]?.apiVersions).toEqual([HUB_VERSION])
    expect([...(webhook.rules[0]?.resources ?? [])].sort()).toEqual(
      KIND_DEFINITIONS.map((d) => d.plural).sort(),
    )
  })

  it('fails closed, has no side effects, matches equivalent versions and answers fast', () => {
    expect(webhook).toMatchObject({
      failurePolicy: 'Fail',
      sideEffects: 'None',
      matchPolicy: 'Equivalent',
    })
    expect(webhook.timeoutSeconds).toBeLessThanOrEqual(10)
    expect(webhook.clientConfig.service.path).toBe(path)
  })

  it('is called for creates and spec changes only, as the dev and test installs are', () => {
    expect(webhook.matchConditions).toEqual(specWriteMatchConditions)
  })
})

describe('the status webhook of validating-webhook-configuration.yaml', () => {
  const webhook = (
    parse(readFileSync(join(base, 'validating-webhook-configuration.yaml'), 'utf8')) as {
      webhooks: Webhook[]
    }
  ).webhooks[1] as Webhook

  it('is called for Machine status writes that change providerStatus, as the dev install is', () => {
    const dev = statusWebhook('https://x/validate', '')
    expect(webhook.rules).toEqual(dev.rules)
    expect(webhook.matchConditions).toEqual(providerStatusWriteMatchConditions)
    expect(webhook.failurePolicy).toBe(dev.failurePolicy)
    expect(webhook.clientConfig.service.path).toBe('/validate')
  })
})
