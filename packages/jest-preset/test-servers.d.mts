export declare const INSTALL_TEST_SERVERS: string;
export declare const missingServerMessage: (what: string, path: string) => string;
export declare function requireInstalled(what: string, path: string): void;
