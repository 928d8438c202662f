/**
 * A record's pre-images name the group's own blobs, numbered as they were kept: a record naming
 * any other file (`../../x`, written by hand or by another program of the owner's) is read as
 * damaged (JSON.parse's reviver throws), never followed there by "undo show" or "undo apply".
 */
export function ownBlobsOnly(key: string, value: unknown): unknown {
  if (key === 'blob' && value !== null && !(typeof value === 'string' && /^\d+$/.test(value))) throw new Error('not a blob of the group');
  return value;
}
