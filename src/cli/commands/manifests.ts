/**
 * @module `machine-api manifests`: prints a rendered install (a kustomize overlay of infra/) by
 * running `kubectl kustomize`.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { CliCommand } from '../command'
import { parseConfig, sourced } from '../config'
import { findOnPath, runTool } from '../tools'

/** The overlays under infra/overlays. */
export const OVERLAYS = ['plain', 'knative', 'jetstream'] as const

const schema = z.object({ overlay: z.enum(OVERLAYS).default('plain') })

/** `manifests`: print the install for one overlay. */
export const manifestsCommand: CliCommand = {
  name: 'manifests',
  summary: 'print a rendered install (kustomize overlay) as YAML',
  description:
    'Renders infra/overlays/<overlay> with `kubectl kustomize` (kubectl from $KUBECTL or PATH): plain (Deployments + sweep CronJob), knative (Knative Services, ApiServerSource, PingSource, Trigger), jetstream (JetStream workers + watch bridge). Needs the infra/ directory of a source checkout.\nExample: machine-api manifests --overlay plain | kubectl apply -f -',
  flags: {
    overlay: {
      type: 'string',
      value: OVERLAYS.join('|'),
      description: 'which install to render (default plain)',
    },
  },
  env: { KUBECTL: 'the kubectl binary to use (default: kubectl on PATH)' },
  async run(values, io) {
    const { overlay } = parseConfig(schema, {
      overlay: sourced(values, {}, { flag: 'overlay' }),
    })
    const dir = join(io.packageRoot, 'infra', 'overlays', overlay)
    if (!existsSync(join(dir, 'kustomization.yaml'))) {
      io.stderr(
        `machine-api manifests: ${dir} not found; this command needs the infra/ directory of a source checkout\n`,
      )
      return 1
    }
    const kubectl = io.env.KUBECTL || findOnPath('kubectl', io.env)
    if (!kubectl) {
      io.stderr('machine-api manifests: kubectl not found; put it on PATH or set $KUBECTL\n')
      return 1
    }
    io.stdout(await runTool(kubectl, ['kustomize', dir], io.env))
    return 0
  },
}
