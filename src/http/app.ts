/**
 * @module The Hono app every server of the project is one of (the webhook, the worker's health
 * port, the reconcile function, the EC2 notice source): one app per process, with the one error
 * handler and the one 404 in the shared JSON format (`{"error":"internal error"}`, 500;
 * `{"error":"no route for GET /x"}`, 404). Routes are added by the modules that own them.
 */
import type { HttpBindings } from '@hono/node-server'
import { type Context, Hono } from 'hono'
import type { Logger } from '../observability/logger'

/** What @hono/node-server hands every handler: the node request and response (`c.env.incoming`). */
export type HttpEnv = { Bindings: HttpBindings }

/** A Hono app served by @hono/node-server. */
export type HttpApp = Hono<HttpEnv>

/** The context of a request to an `HttpApp`. */
export type HttpContext = Context<HttpEnv>

/**
 * A new app with no routes. An error no route handled is logged to `logger` and answered 500
 * without its message (it may name internals); a request no route matches is answered 404.
 */
export function createHttpApp(logger?: Pick<Logger, 'error'>): HttpApp {
  const app: HttpApp = new Hono()
  app.onError((error, c) => {
    // A request whose client went away (or whose connection a stopping server closed) failed
    // for no fault of the route: nobody reads the answer, and it is no error to alert on.
    if (!requestAborted(c)) logger?.error({ err: error, path: c.req.path }, 'request failed')
    return c.json({ error: 'internal error' }, 500)
  })
  app.notFound(notFound)
  return app
}

function requestAborted(c: HttpContext): boolean {
  return c.req.raw.signal.aborted || c.env?.incoming?.destroyed === true
}

/** The 404 of every app: `{"error":"no route for GET /x"}`. */
export function notFound(c: HttpContext): Response {
  return c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404)
}
