/**
 * @module CPU time a running child process has used so far (user + system), from
 * /proc/<pid>/stat (Linux). Load on a shared machine changes how much CPU a process gets, not how
 * much it needs per request: CPU per request is the steadier figure there.
 */
import { readdirSync, readFileSync } from 'node:fs'

// USER_HZ: the unit of utime and stime in /proc/<pid>/stat; 100 on every Linux the bench runs on.
const TICKS_PER_SECOND = 100

/** Milliseconds of CPU `pid` has used (its own threads, not children). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces) start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const utime = Number(fields[11])
  const stime = Number(fields[12])
  return ((utime + stime) * 1000) / TICKS_PER_SECOND
}

/**
 * Milliseconds of CPU `pid` has used so far, to the nanosecond: the run time of each of its
 * threads (/proc/<pid>/task/<tid>/schedstat), where /proc/<pid>/stat counts 10 ms ticks.
 */
export function threadsCpuMs(pid: number): number {
  let ns = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // The thread ended while we looked.
    }
  }
  return ns / 1e6
}

/** The pid of the process named `name` whose command line contains `fragment`, if running. */
export function findPid(name: string, fragment: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== name) continue
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(fragment)) return Number(entry)
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined
}

/** The control plane's processes as /proc names them (comm is cut at 15 characters). */
const controlPlaneProcesses: Record<string, string> = {
  apiserver: 'kube-apiserver',
  etcd: 'etcd',
  kcm: 'kube-controller',
  scheduler: 'kube-scheduler',
  kwok: 'kwok',
}

/**
 * CPU milliseconds used so far by this process (`bench`: the controllers, the in-process webhook
 * and the bench's own client) and by each process of the control plane under `workDir`.
 */
export function cpuReader(workDir: string): () => Record<string, number> {
  const pids: Array<[string, number]> = []
  for (const [key, name] of Object.entries(controlPlaneProcesses)) {
    const pid = findPid(name, workDir)
    if (pid !== undefined) pids.push([key, pid])
  }
  return () => {
    const own = process.cpuUsage()
    const out: Record<string, number> = { bench: (own.user + own.system) / 1000 }
    for (const [key, pid] of pids) out[key] = processCpuMs(pid)
    return out
  }
}
