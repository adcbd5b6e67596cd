/**
 * @module `machine-api plan -f <file>`: what applying a MachineSet or MachineDeployment manifest
 * would make the controllers do, step by step, from the cluster's current state, using the same
 * planners, and which Machines would be replaced now and why. Reads only (get and list); writes
 * nothing.
 */
import { z } from 'zod'
import { createKubeClient } from '../../kube/dynamic-client'
import { createHttpTransport } from '../../kube/http-transport'
import { loadKubeConfig } from '../../kube/kube-config'
import type { MachineDeploymentObject } from '../../reconcile/machine-deployment/machine-sets'
import type { MachineSetObject } from '../../reconcile/machine-set/types'
import { type CliCommand, UsageError } from '../command'
import { parseConfig, sourced } from '../config'
import { desiredObject, ManifestError, readManifest } from '../plan/desired'
import { observeForPlan } from '../plan/observe'
import { renderPlan } from '../plan/render'
import { simulateDeployment, simulateMachineSet } from '../plan/simulate'

const schema = z.object({
  filename: z.string({ error: 'is required' }).min(1, 'is required'),
  kubeconfig: z.string().min(1).optional(),
  namespace: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS label')
    .optional(),
  output: z.enum(['text', 'json']).default('text'),
})

/** `plan`: print the steps, as text or JSON. */
export const planCommand: CliCommand = {
  name: 'plan',
  summary: 'print what applying a MachineSet/MachineDeployment manifest would do',
  description:
    'Reads the manifest, the live object, its MachineSets and the Machines of its namespace, and runs the MachineDeployment and MachineSet planners the controllers use until nothing is left to do: which MachineSets are created, scaled or deleted and which Machines are created or deleted, step by step, within the same maxSurge/maxUnavailable bounds and disruption budgets; then which Machines would be replaced now and why (Drift, Expiry, Rollout) and which wait, for which budget and until when. Writes nothing.\nExample: machine-api plan -f workers.yaml',
  flags: {
    filename: {
      type: 'string',
      short: 'f',
      value: 'FILE',
      description: 'the manifest (YAML or JSON; required)',
    },
    kubeconfig: {
      type: 'string',
      value: 'PATH',
      description: 'kubeconfig (default $KUBECONFIG, then ~/.kube/config, then in-cluster)',
    },
    namespace: {
      type: 'string',
      short: 'n',
      value: 'NS',
      description:
        "namespace (default: the manifest's, then the kubeconfig context's, then default)",
    },
    output: {
      type: 'string',
      short: 'o',
      value: 'text|json',
      description: 'output format (default text)',
    },
  },
  env: { KUBECONFIG: 'default of --kubeconfig' },
  async run(values, io) {
    const flags = parseConfig(schema, {
      filename: sourced(values, {}, { flag: 'filename' }),
      kubeconfig: sourced(values, {}, { flag: 'kubeconfig' }),
      namespace: sourced(values, {}, { flag: 'namespace' }),
      output: sourced(values, {}, { flag: 'output' }),
    })
    try {
      const { kind, object } = readManifest(flags.filename)
      const meta = (object.metadata ?? {}) as { name?: string; namespace?: string }
      if (!meta.name) throw new ManifestError(`${flags.filename}: metadata.name is required`)
      if (flags.namespace && meta.namespace && flags.namespace !== meta.namespace) {
        throw new UsageError(
          `--namespace ${flags.namespace} differs from the manifest's namespace ${meta.namespace}`,
        )
      }
      const kc = loadKubeConfig(flags.kubeconfig)
      const namespace =
        flags.namespace ??
        meta.namespace ??
        kc.getContextObject(kc.getCurrentContext())?.namespace ??
        'default'
      const kube = createKubeClient(createHttpTransport(kc, () => {}))
      try {
        const observed = await observeForPlan(kube, kind, { namespace, name: meta.name })
        const desired = desiredObject(kind, object, { live: observed.live, namespace })
        const input = {
          exists: observed.live !== undefined,
          sets: observed.sets,
          machines: observed.machines,
          startMs: Date.now(),
        }
        const report =
          kind === 'MachineDeployment'
            ? simulateDeployment({
                ...input,
                desired: desired as unknown as MachineDeploymentObject,
              })
            : simulateMachineSet({ ...input, desired: desired as unknown as MachineSetObject })
        io.stdout(
          flags.output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderPlan(report),
        )
        return 0
      } finally {
        kube.close()
      }
    } catch (error) {
      if (error instanceof ManifestError) {
        io.stderr(`machine-api plan: ${error.message}\n`)
        return 1
      }
      throw error
    }
  },
}
