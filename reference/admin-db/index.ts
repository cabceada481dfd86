/**
 * The admin database shared by the reference's servers: the instance table that maps a
 * data-store instance id to its (possibly encrypted) connection string, and the instance contexts.
 *
 *   const admin = await new AdminDatabases().get('file:admin.json');   // or 'memory:default'
 *   const row = admin.instance(3);                                      // { OdsInstanceId, Name, ConnectionString }
 *   const plain = readConnectionString(row.ConnectionString, parseEncryptionKey(keyBase64));
 *   const store = stores.open(plain);                                   // StoreRegistry
 */
export { AdminDatabase, AdminDatabaseError, AdminDatabases, type AdminData, type OdsInstanceContextRow, type OdsInstanceRow } from './admin-database.js';
export {
  DecryptionError, EncryptionKeyError, encryptConnectionString, looksEncrypted, newEncryptionKey, parseEncryptionKey, readConnectionString,
} from './connection-string-crypto.js';
