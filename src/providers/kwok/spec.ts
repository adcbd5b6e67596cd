/**
 * @module The `kwok` provider spec: what a simulated machine's Node looks like. There is no
 * infrastructure behind it; kwok plays the kubelet so the Node turns Ready.
 */
import { z } from 'zod'
import { labelValueError, qualifiedNameError } from '../../api/shared/label-syntax'
import { lazySchema } from '../../api/shared/lazy-schema'

// A non-negative resource.Quantity: digits with an optional fraction, then an optional binary
// (Ki..Ei) or decimal (n, u, m, k, M..E) suffix or an exponent. The Node's status takes nothing else.
// https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/
const QUANTITY = /^([0-9]+(\.[0-9]*)?|\.[0-9]+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$/

const quantity = lazySchema(() =>
  z
    .string()
    .max(32)
    .regex(QUANTITY, 'must be a non-negative Kubernetes quantity, e.g. 4, 500m or 16Gi'),
)

const labelValue = lazySchema(() =>
  z.string().superRefine((value, ctx) => {
    const error = labelValueError(value)
    if (error !== undefined)
      ctx.addIssue({ code: 'custom', message: `must be a label value: ${error}` })
  }),
)

// A label map the Node will hold: keys are qualified names, values label values.
const nodeLabels = lazySchema(() =>
  z.record(z.string(), labelValue()).superRefine((labels, ctx) => {
    for (const key of Object.keys(labels)) {
      const error = qualifiedNameError(key)
      if (error !== undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: `must be a label key: ${error}` })
    }
  }),
)

/** The `kwok` provider spec. */
export const kwokProviderSpecSchema = lazySchema(() =>
  z.strictObject({
    nodeLabels: nodeLabels()
      .default({})
      .describe('Labels for the simulated Node (e.g. node.kubernetes.io/instance-type).'),
    zone: z
      .string()
      .min(1)
      .pipe(labelValue())
      .optional()
      .describe('Sets topology.kubernetes.io/zone on the Node, to simulate spreading.'),
    zones: z
      .array(z.string().min(1).pipe(labelValue()))
      .max(64)
      .optional()
      .describe(
        'Zones a MachineSet balances its Machines over (each Machine gets one as ' +
          'spec.failureDomain, which becomes its Node zone label); overrides zone.',
      ),
    allocatable: z
      .strictObject({
        cpu: quantity().default('4'),
        memory: quantity().default('16Gi'),
        pods: quantity().default('110'),
      })
      .prefault({})
      .describe('Capacity the scheduler sees on the simulated Node.'),
  }),
)

/** A parsed, defaulted `kwok` provider spec. */
export type KwokProviderSpec = z.output<ReturnType<typeof kwokProviderSpecSchema>>
