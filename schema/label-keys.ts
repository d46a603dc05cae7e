// A value list and its labels, written once: the labels record is the list (in its own order),
// and keysOf gives the tuple that z.enum and the screens' loops take.

/** The keys of a label record in the record's order. */
export const keysOf = <K extends string>(labels: Record<K, string>) => Object.keys(labels) as [K, ...K[]];
