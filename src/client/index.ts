/**
 * webfolder client library, isomorphic part (Node 20+ and browser bundles): the transfer core
 * (src/transfer), which the browser site uses too. Node programs import `src/client/node/index.ts`,
 * which adds disk files, state files and downloads into a directory.
 */
export * from '../transfer/index.js';
export {
  clearNotifications,
  getNotifications,
  type NotificationChange,
  type NotificationSettings,
  type NotifyOptions,
  setNotifications,
} from './notify.js';
