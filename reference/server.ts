/**
 * Builds and starts the reference service. startReference() is also used in-process by scripts
 * (bench, mutation runner), so it takes options and returns a close() handle.
 */
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Config, type ConfigOptions, loadConfig } from './config';
import type { ServiceContext } from './context';
import { Registry } from './registry';
import { AccessTokens } from './access-tokens';
import { ReplayGuard } from './jwt-verify';
import { Store } from './ledger-of-payments/store';
import { Lifecycle } from './lifecycle';
import { ApiError, OAuthError, sendApiError, sendOAuthError, errorsOf, NOT_FOUND_MESSAGE } from './errors';
import { registerAdminRoutes } from './admin';
import { readBody } from './body';
import { registerTokenRoute } from './routes/token';
import { registerPaymentRoutes } from './routes/payments';
import { registerStatusRoutes } from './routes/status';
import { registerCancellationRoutes } from './routes/cancellation';
import { registerReturnRoutes } from './routes/returns';
import { registerRefundRoutes } from './routes/refunds';
import { registerIncomingRoutes } from './routes/incoming';
import { requestDialect } from './request-scope';
import { registerRequestHooks } from './request-hooks';
import { registerSandboxConditions } from './sandbox-conditions';
import { registerBrokenTarget } from './broken';
import { loadIsoSchemas } from './iso-schema';

export interface ReferenceHandle {
  url: string;
  port: number;
  config: Config;
  close(): Promise<void>;
}

export function createContext(config: Config): ServiceContext {
  const registry = new Registry(config.faults, config.dialect);
  config.clients.forEach((registration, i) => {
    const result = registry.register(registration);
    if (!result.ok) throw new Error(`REF_CLIENTS entry ${i + 1}: ${result.problems.join('; ')}`);
  });
  const tokens = new AccessTokens();
  const assertionJtis = new ReplayGuard();
  const scaNonces = new ReplayGuard();
  const scaJtis = new ReplayGuard();
  const lifecycle = new Lifecycle(config, registry, (nowMs) => {
    tokens.prune(nowMs);
    assertionJtis.prune(nowMs);
    scaNonces.prune(nowMs);
    scaJtis.prune(nowMs);
  });
  return {
    config,
    processDialect: config.dialect,
    registry,
    tokens,
    assertionJtis,
    scaNonces,
    scaJtis,
    store: new Store(config.dialect.paymentsServiceIdFormat, config.maxTransfers),
    lifecycle,
    globalFaults: new Set(config.faults),
  };
}

export function buildApp(ctx: ServiceContext): FastifyInstance {
  const { requestTimeoutMs, headersTimeoutMs } = ctx.config;
  const app = Fastify({
    logger: false,
    bodyLimit: ctx.config.maxBodyBytes,
    forceCloseConnections: true,
    return503OnClosing: true,
    // A request (headers and body) must arrive within requestTimeoutMs, its headers within
    // headersTimeoutMs; then Node answers 408 and closes the connection. Node looks for late
    // requests every connectionsCheckingInterval (30 s by default): checked more often here, so a
    // stalled body holds its connection for about the timeout, not up to 30 s longer.
    requestTimeout: requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(headersTimeoutMs / 4))),
    },
  });

  // Every body arrives as raw bytes: the SCA hd is a hash of the exact bytes, and each route decides
  // itself (after authentication) whether the media type is acceptable.
  app.removeAllContentTypeParsers();
  // Not fastify's own reader: over bodyLimit it answers 413 and closes while the client is still
  // writing. readBody reads the whole body first (README, REF_MAX_BODY_BYTES).
  app.addContentTypeParser('*', (_req, payload, done) => readBody(payload, ctx.config.maxBodyBytes, done));

  // Errors are rendered in the dialect of the request's client (request-scope.ts).
  app.setErrorHandler((error: FastifyError | Error, req, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    if (error instanceof ApiError) return sendApiError(reply, requestDialect(ctx, req), error);
    const status = (error as FastifyError).statusCode;
    // Framework errors with a 4xx status (oversized body 413, broken framing 400...) stay 4xx.
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendApiError(
        reply,
        requestDialect(ctx, req),
        new ApiError(status === 413 ? 'tooLarge' : status, {
          code: (error as FastifyError).code ?? 'bad_request',
          message: error.message,
        }),
      );
    }
    return sendApiError(
      reply,
      requestDialect(ctx, req),
      new ApiError(500, { code: 'internal_error', message: 'internal error' }),
    );
  });
  app.setNotFoundHandler((req, reply) =>
    sendApiError(reply, requestDialect(ctx, req), errorsOf.notFound(NOT_FOUND_MESSAGE)),
  );
  registerRequestHooks(app, ctx);
  // libxml2 (an ES module loaded once per process) before any route reads ISO 20022 (iso-schema.ts).
  app.addHook('onRequest', () => loadIsoSchemas());
  registerSandboxConditions(app, ctx);
  registerBrokenTarget(app, ctx);

  if (ctx.config.latencyMs > 0) {
    const delay = ctx.config.latencyMs;
    app.addHook('onSend', async (_req, _reply, payload) => {
      await sleep(delay);
      return payload;
    });
  }

  if (ctx.config.admin) registerAdminRoutes(app, ctx);
  registerTokenRoute(app, ctx);
  registerPaymentRoutes(app, ctx);
  registerStatusRoutes(app, ctx);
  registerCancellationRoutes(app, ctx);
  registerReturnRoutes(app, ctx);
  registerRefundRoutes(app, ctx);
  registerIncomingRoutes(app, ctx);
  return app;
}

export async function startReference(options: ConfigOptions = {}): Promise<ReferenceHandle> {
  const config = loadConfig(options);
  const ctx = createContext(config);
  const app = buildApp(ctx);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const hostForUrl = config.host.includes(':')
    ? `[${config.host}]`
    : config.host === '0.0.0.0'
      ? '127.0.0.1'
      : config.host;
  ctx.lifecycle.start();
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    config,
    close: async () => {
      ctx.lifecycle.stop();
      await app.close();
    },
  };
}
