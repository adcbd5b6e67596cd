/**
 * @module api-cost: apiserver requests per Machine over a whole create -> Running -> delete cycle
 * (a MachineSet scaled 0 -> N -> 0, every controller on the in-process bus), by verb and resource.
 * Two sources: the apiserver's own `apiserver_request_total` (everyone: kcm, scheduler and kwok
 * too) and our transport's counters (the controllers only). The limit is the minimum a Machine
 * needs: 7 writes, no reads (see `minimumPerMachine`).
 */
import { machineApiTypes } from '../../src/api/resource-types'
import { coreTypes } from '../../src/kube/resource'
import { scrapeRequestCounts } from './lib/apiserver-metrics'
import {
  byVerb,
  diffCounts,
  isCollectionRead,
  perUnit,
  type RequestCounts,
  totalOf,
} from './lib/apiserver-metrics-text'
import type { Bench } from './lib/bench'
import { installFleetApi } from './lib/fleet-api'
import { startFleetControllers } from './lib/fleet-controllers'
import { countingKube } from './lib/fleet-kube'
import { kwokMachineSet } from './lib/fleet-manifests'
import { tightWritesPerMachine, waitForEmpty } from './lib/fleet-tight-client'
import { waitForRunning } from './lib/fleet-watch'
import { measurement } from './lib/measurement'
import { round } from './lib/stats'

const namespace = 'cost'
const setName = 'cost'
const machines = 20

/**
 * The fewest requests one Machine's life can take: the tight client's 4 writes (create the Machine
 * with its finalizer, a provisioned status, create the Node, the Running status with nodeRef) and
 * 3 to end it (delete the Machine, delete the Node, drop the finalizer). No GET: a controller fed
 * by watches already has the objects. Lists and watches are per process, not per Machine.
 */
const minimumPerMachine = tightWritesPerMachine + 3

const isWrite = (key: string) => !/^(get|list|watch|GET|LIST|WATCH|WATCHLIST) /.test(key)
const isGet = (key: string) => /^(get|GET) /.test(key)

export const apiCostBench: Bench = {
  id: 'api-cost',
  title: `apiserver requests per Machine, create -> Running -> delete (MachineSet 0 -> ${machines} -> 0)`,
  async run(env) {
    const api = await installFleetApi(env.controlPlane)
    const controllers = countingKube(api.kc)
    const bench = countingKube(api.kc)
    const running = await (async () => {
      await bench.kube.create(coreTypes.namespace, { metadata: { name: namespace } })
      await bench.kube.create(machineApiTypes.machineSet, kwokMachineSet(namespace, setName, 0))
      return await startFleetControllers({
        kube: controllers.kube,
        metrics: controllers.metrics,
        namespace,
      })
    })()
    try {
      const samples = {
        ours: [] as number[],
        oursWrites: [] as number[],
        oursGets: [] as number[],
        oursListWatch: [] as number[],
        all: [] as number[],
        allListWatch: [] as number[],
      }
      let last:
        | {
            ours: RequestCounts
            all: RequestCounts
            bench: RequestCounts
            reconciles: RequestCounts
          }
        | undefined
      for (let run = 0; run < env.options.runs; run++) {
        const before = {
          ours: await controllers.counts(),
          reconciles: await controllers.reconciles(),
          bench: await bench.counts(),
          all: await scrapeRequestCounts(env.controlPlane),
        }
        const scale = (replicas: number) =>
          bench.kube.mergePatch(
            machineApiTypes.machineSet,
            { namespace, name: setName },
            { spec: { replicas } },
          )
        await scale(machines)
        await waitForRunning(bench.kube, namespace, machines, 300_000)
        await scale(0)
        await waitForEmpty(bench.kube, namespace)
        const ours = diffCounts(before.ours, await controllers.counts())
        const reconciles = diffCounts(before.reconciles, await controllers.reconciles())
        const benchOwn = diffCounts(before.bench, await bench.counts())
        const all = diffCounts(before.all, await scrapeRequestCounts(env.controlPlane))
        // The bench's own waits (a list, a watch, empty-namespace polls) are nobody's cost.
        const allButBench = totalOf(all) - totalOf(benchOwn)
        const allButBenchListWatch =
          totalOf(all, isCollectionRead) - totalOf(benchOwn, isCollectionRead)
        samples.ours.push(totalOf(ours) / machines)
        samples.oursWrites.push(totalOf(ours, isWrite) / machines)
        samples.oursGets.push(totalOf(ours, isGet) / machines)
        samples.oursListWatch.push(totalOf(ours, isCollectionRead))
        samples.all.push(allButBench / machines)
        samples.allListWatch.push(allButBenchListWatch)
        env.log(
          `run ${run + 1}: ours ${round(totalOf(ours) / machines, 1)}/Machine, apiserver ${round(allButBench / machines, 1)}/Machine`,
        )
        last = { ours, all, bench: benchOwn, reconciles }
      }
      const minimum = {
        name: `minimum (${minimumPerMachine} writes, no reads)`,
        value: minimumPerMachine,
      }
      return {
        id: 'api-cost',
        title: apiCostBench.title,
        measurements: [
          measurement('controllers: requests per Machine', 'req', samples.ours, minimum),
          measurement('controllers: writes per Machine', 'req', samples.oursWrites, {
            name: `minimum (${minimumPerMachine})`,
            value: minimumPerMachine,
          }),
          measurement(
            'controllers: GETs per Machine',
            'req',
            samples.oursGets,
            undefined,
            'minimum 0 with a watch cache',
          ),
          measurement(
            `controllers: lists + watches per cycle of ${machines}`,
            'req',
            samples.oursListWatch,
            undefined,
            'not per Machine: watch restarts, node lookups and the sweep',
          ),
          measurement(
            'apiserver: all requests per Machine',
            'req',
            samples.all,
            minimum,
            "apiserver_request_total, incl. kcm, scheduler, kwok and webhooks; minus the bench's own",
          ),
          measurement(
            `apiserver: lists + watches per cycle of ${machines}`,
            'req',
            samples.allListWatch,
            undefined,
            'a WATCH is counted when it ends, so open watches are missing',
          ),
        ],
        details: {
          machines,
          minimumPerMachine,
          controllersPerMachine: perUnit(last?.ours ?? {}, machines),
          reconcilesPerMachineByKind: perUnit(last?.reconciles ?? {}, machines),
          controllersByVerbPerMachine: perUnit(byVerb(last?.ours ?? {}), machines),
          apiserverPerMachine: perUnit(last?.all ?? {}, machines),
          apiserverByVerbPerMachine: perUnit(byVerb(last?.all ?? {}), machines),
          benchOwn: last?.bench,
        },
      }
    } finally {
      await running.stop()
      controllers.kube.close()
      bench.kube.close()
      await api.close()
    }
  },
}
