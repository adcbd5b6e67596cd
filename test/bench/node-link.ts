/**
 * @module node-link: the Node reads one Machine's link takes in a cluster of N Nodes (N = 1,000):
 * the requests and Node objects the Machine controller's Node lookup (findNode) reads when the
 * Node has joined, and each time it looks before the Node joins (an EC2 instance is running a
 * minute or two before its kubelet registers; the controller looks again every 15 s). Each
 * lookup reads through a read-once client, as a reconcile does. The limit is one GET per lookup,
 * the fewest that can tell whether the Node is there.
 */
import { KubeConfig } from '@kubernetes/client-node'
import type { KubeClient, ListOptions } from '../../src/kube/kube-client'
import { readOnce } from '../../src/kube/read-once'
import {
  coreTypes,
  type KubeObject,
  type ObjectRef,
  type ResourceType,
} from '../../src/kube/resource'
import { findNode, type NodeLookup } from '../../src/reconcile/machine/node-linking'
import { diffCounts, type RequestCounts, totalOf } from './lib/apiserver-metrics-text'
import type { Bench } from './lib/bench'
import { countingKube } from './lib/fleet-kube'
import { measurement } from './lib/measurement'
import { round } from './lib/stats'

const region = 'eu-west-1'
/** Lookups before the Node joins, per link: a kubelet registering 60 s after launch. */
const missesPerLink = 4

/** The i-th Node as the kubelet on EC2 registers it: named by private DNS name. */
function ec2Node(i: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: privateDnsName(i) },
    spec: { providerID: providerID(i) },
  }
}

function privateDnsName(i: number): string {
  return `ip-10-0-${Math.floor(i / 250)}-${(i % 250) + 1}.${region}.compute.internal`
}

function providerID(i: number): string {
  return `aws:///${region}a/i-${i.toString(16).padStart(17, '0')}`
}

/** What a provider reports for instance `i`: its providerID, addresses and Node name. */
function lookupOf(i: number): NodeLookup {
  const name = privateDnsName(i)
  return {
    providerID: providerID(i),
    nodeName: name,
    addresses: [
      { type: 'InternalDNS', address: name },
      { type: 'Hostname', address: name },
    ],
  }
}

/** `kube` counting the objects its lists return. */
function countingObjects(kube: KubeClient): { kube: KubeClient; objects: () => number } {
  let objects = 0
  return {
    kube: {
      ...kube,
      async get<T extends KubeObject>(type: ResourceType, ref: ObjectRef) {
        const obj = await kube.get<T>(type, ref)
        if (obj) objects++
        return obj
      },
      async list<T extends KubeObject>(type: ResourceType, options?: ListOptions) {
        const page = await kube.list<T>(type, options)
        objects += page.items.length
        return page
      },
    },
    objects: () => objects,
  }
}

export const nodeLinkBench: Bench = {
  id: 'node-link',
  title: 'Node reads per Machine link among 1,000 Nodes',
  controlPlane: { kcm: false, scheduler: false, kwok: false },
  async run(env) {
    const nodes = env.options.quick ? 200 : 1_000
    const lookups = env.options.quick ? 20 : 100
    const kc = new KubeConfig()
    kc.loadFromFile(env.controlPlane.kubeconfigPath)
    const counting = countingKube(kc)
    const seed = countingKube(kc)
    try {
      env.log(`creating ${nodes} Nodes`)
      for (let i = 0; i < nodes; i += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, nodes - i) }, (_, j) =>
            seed.kube.create(coreTypes.node, ec2Node(i + j)),
          ),
        )
      }
      /** Requests and objects per lookup over `lookups` lookups of instances `first`... */
      async function measure(first: number): Promise<{ requests: number; objects: number }> {
        const before: RequestCounts = await counting.counts()
        const client = countingObjects(counting.kube)
        for (let i = 0; i < lookups; i++) {
          const node = await findNode(readOnce(client.kube), lookupOf(first + ((i * 7) % nodes)))
          if (first === 0 && !node) throw new Error('a joined Node was not found')
          if (first !== 0 && node) throw new Error('found a Node that has not joined')
        }
        const counts = diffCounts(before, await counting.counts())
        return { requests: totalOf(counts) / lookups, objects: client.objects() / lookups }
      }
      const joined = { requests: [] as number[], objects: [] as number[] }
      const missing = { requests: [] as number[], objects: [] as number[] }
      for (let run = 0; run < env.options.runs; run++) {
        const found = await measure(0)
        // Instances numbered past the last Node: running, their kubelets not registered yet.
        const absent = await measure(nodes)
        joined.requests.push(found.requests)
        joined.objects.push(found.objects)
        missing.requests.push(absent.requests)
        missing.objects.push(absent.objects)
        env.log(
          `run ${run + 1}: joined ${round(found.requests, 2)} req / ${round(found.objects, 1)} Nodes, not joined ${round(absent.requests, 2)} req / ${round(absent.objects, 1)} Nodes per lookup`,
        )
      }
      // A link: the lookups that find nothing yet, then the one that finds the Node.
      const perLink = (key: 'requests' | 'objects') =>
        joined[key].map((value, i) => value + missesPerLink * (missing[key][i] ?? 0))
      const oneGet = { name: 'one GET', value: 1 }
      return {
        id: 'node-link',
        title: nodeLinkBench.title.replace('1,000', nodes.toLocaleString('en')),
        measurements: [
          measurement('requests per lookup, Node joined', 'req', joined.requests, oneGet),
          measurement('requests per lookup, Node not joined yet', 'req', missing.requests, oneGet),
          measurement('Nodes read per lookup, Node joined', 'objects', joined.objects),
          measurement('Nodes read per lookup, Node not joined yet', 'objects', missing.objects),
          measurement(
            `requests per link (${missesPerLink} lookups before the Node joins)`,
            'req',
            perLink('requests'),
            { name: `${missesPerLink + 1} GETs`, value: missesPerLink + 1 },
          ),
          measurement(
            `Nodes read per link (${missesPerLink} lookups before the Node joins)`,
            'objects',
            perLink('objects'),
          ),
        ],
        details: { nodes, lookups, missesPerLink },
      }
    } finally {
      counting.kube.close()
      seed.kube.close()
    }
  },
}
