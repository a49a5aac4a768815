import { Cluster, Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis target is a `redis://` URL (one server) or `redis-cluster://host:port,host:port,...`
 * (a Redis Cluster, from REDIS_CLUSTER_NODES: the nodes to discover it from). Every Redis
 * connection of the service is opened here, so BullMQ and the rate limiter work on both.
 */
export const CLUSTER_SCHEME = 'redis-cluster://';

export type RedisConnection = Redis | Cluster;

export function isClusterUrl(url: string): boolean {
  return url.startsWith(CLUSTER_SCHEME);
}

/** `redis-cluster://a:7000,b:7001` → the seed nodes. */
export function clusterNodes(url: string): { host: string; port: number }[] {
  const nodes = url
    .slice(CLUSTER_SCHEME.length)
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const match = /^([^:\s]+):(\d+)$/.exec(part);
      if (!match) throw new Error(`Redis Cluster node "${part}" is not host:port`);
      return { host: match[1]!, port: Number(match[2]) };
    });
  if (nodes.length === 0) throw new Error('a Redis Cluster needs at least one host:port');
  return nodes;
}

/** One connection (or cluster client) with these options; cluster-level ones are lifted out. */
export function openRedis(url: string, options: RedisOptions = {}): RedisConnection {
  if (!isClusterUrl(url)) return new Redis(url, options);
  const { lazyConnect, enableOfflineQueue, ...redisOptions } = options;
  return new Cluster(clusterNodes(url), {
    lazyConnect,
    enableOfflineQueue,
    redisOptions,
    // A failover moves slots: retry the command on the new owner rather than failing it.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
  });
}

/**
 * The BullMQ prefix for this target. On a cluster every key of a queue must hash to one slot
 * (BullMQ's Lua scripts touch several), so the prefix is a hash tag: `cf` becomes `{cf}`. On
 * one server the prefix is used as given.
 */
export function bullmqPrefix(url: string, prefix: string): string {
  return isClusterUrl(url) && !/^\{[^}]+\}$/.test(prefix) ? `{${prefix}}` : prefix;
}
