/**
 * @module The few EC2 query-protocol edits the fault proxy makes on moto's answers and requests:
 * the instances of a DescribeInstances answer (reservations -> instancesSet -> items), the
 * instance ids of a launch's answer, and the `Filter.N` parameters of a request. String scanning
 * over `<item>` nesting, not a general XML parser: EC2 answers are machine-written and regular.
 */

/** The text of the first `<tag>` element in `xml` (undefined when there is none or it is empty). */
export function childText(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)
  return match?.[1] || undefined
}

/** The `[start, end)` spans of the `<item>` elements directly inside `xml[from, to)`. */
function topItems(xml: string, from: number, to: number): [number, number][] {
  const spans: [number, number][] = []
  const token = /<item\/>|<item>|<\/item>/g
  token.lastIndex = from
  let depth = 0
  let start = -1
  for (let m = token.exec(xml); m && m.index < to; m = token.exec(xml)) {
    if (m[0] === '<item/>') {
      if (depth === 0) spans.push([m.index, m.index + m[0].length])
    } else if (m[0] === '<item>') {
      if (depth === 0) start = m.index
      depth++
    } else {
      depth--
      if (depth === 0) spans.push([start, m.index + m[0].length])
    }
  }
  return spans
}

/** The span of the inside of the first `<tag>...</tag>` in `xml[from, to)`, if any. */
function inner(xml: string, tag: string, from = 0, to = xml.length): [number, number] | undefined {
  const open = xml.indexOf(`<${tag}>`, from)
  if (open < 0 || open >= to) return undefined
  const start = open + tag.length + 2
  const close = xml.indexOf(`</${tag}>`, start)
  return close < 0 || close > to ? undefined : [start, close]
}

/**
 * `body` (a DescribeInstances answer) without the instances `keep` rejects; a reservation left
 * without instances goes too, as EC2 would not list it. Returns the body and how many went.
 */
export function pruneInstances(
  body: string,
  keep: (instanceXml: string) => boolean,
): { body: string; removed: number } {
  const set = inner(body, 'reservationSet')
  if (!set) return { body, removed: 0 }
  let removed = 0
  const reservations = topItems(body, set[0], set[1]).map(([from, to]) => {
    const reservation = body.slice(from, to)
    const instances = inner(reservation, 'instancesSet')
    if (!instances) return reservation
    const items = topItems(reservation, instances[0], instances[1])
    const kept = items.filter(([a, b]) => keep(reservation.slice(a, b)))
    removed += items.length - kept.length
    if (kept.length === 0) return ''
    if (kept.length === items.length) return reservation
    return (
      reservation.slice(0, instances[0]) +
      kept.map(([a, b]) => reservation.slice(a, b)).join('') +
      reservation.slice(instances[1])
    )
  })
  return {
    body: body.slice(0, set[0]) + reservations.join('') + body.slice(set[1]),
    removed,
  }
}

/** The first reservation of a DescribeInstances answer, as the body of a RunInstances answer. */
export function asRunInstancesAnswer(describeBody: string): string | undefined {
  const set = inner(describeBody, 'reservationSet')
  const first = set ? topItems(describeBody, set[0], set[1])[0] : undefined
  if (!first) return undefined
  const reservation = describeBody.slice(first[0] + '<item>'.length, first[1] - '</item>'.length)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<RunInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>fault-proxy</requestId>${reservation}</RunInstancesResponse>`
}

/** The instance ids a RunInstances or CreateFleet answer names. */
export function launchedIds(body: string): string[] {
  return [...new Set([...body.matchAll(/>(i-[0-9a-f]+)</g)].map((m) => m[1] ?? ''))]
}

/** One `Filter.N` of a request. */
export interface QueryFilter {
  name: string
  values: string[]
}

/** The request's `Filter.N.Name` / `Filter.N.Value.M` parameters, in order. */
export function readFilters(params: URLSearchParams): QueryFilter[] {
  const filters: QueryFilter[] = []
  for (let n = 1; params.has(`Filter.${n}.Name`); n++) {
    const values: string[] = []
    for (let m = 1; params.has(`Filter.${n}.Value.${m}`); m++) {
      values.push(params.get(`Filter.${n}.Value.${m}`) ?? '')
    }
    filters.push({ name: params.get(`Filter.${n}.Name`) ?? '', values })
  }
  return filters
}

/** `params` with its filters replaced by `filters` (numbered from 1 again). */
export function withFilters(params: URLSearchParams, filters: QueryFilter[]): URLSearchParams {
  const out = new URLSearchParams()
  for (const [key, value] of params) if (!key.startsWith('Filter.')) out.append(key, value)
  for (const [i, filter] of filters.entries()) {
    out.append(`Filter.${i + 1}.Name`, filter.name)
    for (const [j, value] of filter.values.entries()) {
      out.append(`Filter.${i + 1}.Value.${j + 1}`, value)
    }
  }
  return out
}

/** The `InstanceId.N` parameters of a request. */
export function requestedIds(params: URLSearchParams): string[] {
  const ids: string[] = []
  for (let n = 1; params.has(`InstanceId.${n}`); n++) ids.push(params.get(`InstanceId.${n}`) ?? '')
  return ids
}

/** Whether `value` matches an EC2 filter value (`*`: any run of characters, `?`: one). */
export function filterMatches(pattern: string, value: string): boolean {
  const source = pattern
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${source}$`).test(value)
}
