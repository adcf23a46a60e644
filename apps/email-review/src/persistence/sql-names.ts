/** A schema-qualified table name. Schema names are validated as plain identifiers at start-up. */
export function table(schema: string, name: string): string {
  return `"${schema}"."${name}"`;
}
