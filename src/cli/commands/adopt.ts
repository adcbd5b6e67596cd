/**
 * @module `machine-api adopt`: take over a running fleet in place (Cluster API with CAPA,
 * OpenShift's machine.openshift.io, or unmanaged EC2 instances) with no launch and no
 * termination. Parses flags, wires the kube and EC2 clients, runs src/adopt, prints the report.
 */
import { EC2Client } from '@aws-sdk/client-ec2'
import { z } from 'zod'
import type { AdoptSource } from '../../adopt/read-sources'
import { renderAdoptReport } from '../../adopt/render'
import { runAdoption } from '../../adopt/run'
import { parseDurationMs } from '../../api/shared/duration'
import { createKubeClient } from '../../kube/dynamic-client'
import { createHttpTransport } from '../../kube/http-transport'
import { loadKubeConfig } from '../../kube/kube-config'
import { silentLogger } from '../../observability/logger'
import { realTimers } from '../../timers'
import { type CliCommand, UsageError } from '../command'
import { parseConfig, sourced } from '../config'
import { installationOwner } from '../installation-owner'

const dnsLabel = z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS label')
const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

const schema = z.object({
  from: z.enum(['capi', 'openshift', 'instances'], {
    error: 'must be capi, openshift or instances',
  }),
  name: z.string().min(1).optional(),
  sourceNamespace: dnsLabel.optional(),
  namespace: dnsLabel.optional(),
  tag: z
    .string()
    .optional()
    .refine((v) => list(v).every((t) => /^[^=]+=.*$/.test(t)), 'must be key=value[,key=value...]'),
  nodeSelector: z.string().min(1).optional(),
  namePrefix: dnsLabel.default('adopted'),
  credentialsSecret: z.string().min(1).optional(),
  userDataSecret: z.string().min(1).optional(),
  force: z.string().optional(),
  dryRun: z.boolean().default(false),
  rollback: z.boolean().default(false),
  wait: z
    .string()
    .default('10m')
    .refine((v) => parseDurationMs(v) !== undefined, 'must be a duration such as 10m or 90s'),
  output: z.enum(['text', 'json']).default('text'),
  kubeconfig: z.string().min(1).optional(),
  region: z.string().min(1).optional(),
  ec2Endpoint: z.url().optional(),
})

type Flags = z.output<typeof schema>

/** `sourceNamespace` -> `source-namespace`: the flag of a schema key. */
const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

function sourceOf(flags: Flags, namespace: string): AdoptSource {
  if (flags.from === 'instances') {
    const tags = Object.fromEntries(
      list(flags.tag).map((t) => [t.slice(0, t.indexOf('=')), t.slice(t.indexOf('=') + 1)]),
    )
    if (Object.keys(tags).length === 0 && !flags.nodeSelector) {
      throw new UsageError('--from instances needs --tag or --node-selector')
    }
    return {
      from: 'instances',
      tags,
      nodeSelector: flags.nodeSelector,
      namePrefix: flags.namePrefix,
    }
  }
  return { from: flags.from, namespace: flags.sourceNamespace ?? namespace, name: flags.name }
}

/** `adopt`: print what was done (or, with --dry-run, what would be), as text or JSON. */
export const adoptCommand: CliCommand = {
  name: 'adopt',
  summary: 'take over a running Cluster API, OpenShift or unmanaged EC2 fleet in place',
  description:
    "Takes over running instances without launching or terminating any: pauses the source (Cluster API: the cluster.x-k8s.io/paused annotation; OpenShift: its Machine controllers must be stopped), creates a MachineClass translated from the template, the MachineDeployment or MachineSet and one Machine per instance recording that instance and linked to its Node, tags each instance as its Machine's, waits until every Machine is Running, then releases the source objects (finalizers off, deleted: nothing terminates). Fields with no machine-api equivalent are listed with their paths and refused unless --force names them; on any problem nothing is changed. Run the same command again to resume an interrupted adoption, or add --rollback to undo one whose source was not released yet. docs/migration.md walks through each path.\nExamples:\n  machine-api adopt --from capi --name workers -n fleet --user-data-secret bootstrap --dry-run\n  machine-api adopt --from openshift --name infra-a --source-namespace openshift-machine-api -n fleet\n  machine-api adopt --from instances --tag team=legacy -n fleet",
  flags: {
    from: {
      type: 'string',
      value: 'capi|openshift|instances',
      description: 'what to adopt (required)',
    },
    name: {
      type: 'string',
      value: 'NAME',
      description:
        'the MachineDeployment (capi) or MachineSet (openshift); default: every one in the source namespace',
    },
    'source-namespace': {
      type: 'string',
      value: 'NS',
      description: "the source objects' namespace (default: --namespace)",
    },
    namespace: {
      type: 'string',
      short: 'n',
      value: 'NS',
      description:
        "where the machine-api objects go (default: the kubeconfig context's, then default)",
    },
    tag: {
      type: 'string',
      value: 'K=V[,K=V]',
      description: 'instances: every one of these EC2 tags',
    },
    'node-selector': {
      type: 'string',
      value: 'SELECTOR',
      description: 'instances: the Nodes (label selector) whose instances to adopt',
    },
    'name-prefix': {
      type: 'string',
      value: 'PREFIX',
      description: 'instances: Machine names are PREFIX-<instance id> (default adopted)',
    },
    'credentials-secret': {
      type: 'string',
      value: 'NAME',
      description: 'the AWS credentials Secret the class names (target namespace)',
    },
    'user-data-secret': {
      type: 'string',
      value: 'NAME',
      description: 'the bootstrap user-data Secret the class names, for Machines launched later',
    },
    force: {
      type: 'string',
      value: 'PATH[,PATH]',
      description: 'accept dropping these untranslatable fields (path or object:path)',
    },
    'dry-run': { type: 'boolean', description: 'print the plan; change nothing' },
    rollback: { type: 'boolean', description: 'undo an adoption whose source is not released yet' },
    wait: {
      type: 'string',
      value: 'DURATION',
      description: 'how long to wait for the Machines to run before stopping (default 10m)',
    },
    output: {
      type: 'string',
      short: 'o',
      value: 'text|json',
      description: 'output format (default text)',
    },
    kubeconfig: {
      type: 'string',
      value: 'PATH',
      description: 'kubeconfig (default $KUBECONFIG, then ~/.kube/config, then in-cluster)',
    },
    region: {
      type: 'string',
      value: 'REGION',
      description: "the instances' region (default: the SDK's, AWS_REGION)",
    },
    'ec2-endpoint': {
      type: 'string',
      value: 'URL',
      description: "EC2 endpoint (default: the SDK's; for tests and private endpoints)",
    },
  },
  env: {
    KUBECONFIG: 'default of --kubeconfig',
    AWS_REGION: 'default of --region',
    MACHINE_API_OWNER_ID: 'the owner tag value (default: from the kube-system namespace UID)',
  },
  async run(values, io) {
    const flags = parseConfig(
      schema,
      Object.fromEntries(
        Object.keys(schema.shape).map((key) => [key, sourced(values, {}, { flag: kebab(key) })]),
      ),
    )
    const kc = loadKubeConfig(flags.kubeconfig)
    const namespace =
      flags.namespace ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default'
    const source = sourceOf(flags, namespace)
    const kube = createKubeClient(createHttpTransport(kc, () => {}))
    const ec2 = new EC2Client({
      ...(flags.region ? { region: flags.region } : {}),
      ...(flags.ec2Endpoint ? { endpoint: flags.ec2Endpoint } : {}),
    })
    const controller = new AbortController()
    try {
      const { ownerId } = await installationOwner(kube, io.env)
      const report = await runAdoption(
        {
          kube,
          ec2,
          ownerId,
          signal: controller.signal,
          log: silentLogger(),
          timers: realTimers({ keepAlive: true }),
        },
        {
          source,
          target: {
            namespace,
            credentialsSecret: flags.credentialsSecret,
            userDataSecret: flags.userDataSecret,
          },
          force: list(flags.force),
          dryRun: flags.dryRun,
          rollback: flags.rollback,
          waitMs: parseDurationMs(flags.wait) ?? 600_000,
        },
      )
      const text =
        flags.output === 'json'
          ? `${JSON.stringify(report, null, 2)}\n`
          : renderAdoptReport(report, flags.dryRun)
      ;(report.exitCode === 0 ? io.stdout : io.stderr)(text)
      return report.exitCode
    } finally {
      controller.abort()
      kube.close()
      ec2.destroy()
    }
  },
}
