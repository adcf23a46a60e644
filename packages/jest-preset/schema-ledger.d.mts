export declare const ledgerPath: (dir?: string) => string;
export declare const testDatabaseUrl: () => string;
export declare const derivedSchemas: (schema: string) => string[];
export declare function recordSchema(schema: string, dir?: string): void;
export declare function clearLedger(dir?: string): void;
export declare function recordedSchemas(dir?: string): string[];
export declare function leftoverSchemas(recorded: string[], url?: string): Promise<string[]>;
