/** The invoices `lookup_invoice` knows about: static, in-repo data standing in for a billing system. */
export interface Invoice {
  invoice_id: string;
  customer: string;
  /** Where the invoice is sent: what a customer without a token proves it is theirs with. */
  billing_email: string;
  amount: number;
  /** ISO 4217: EUR, USD, GBP here. */
  currency: string;
  /** paid, open, overdue or refunded here; a billing system may have others. */
  status: string;
  issued_on: string;
  due_on: string;
}

export const INVOICES: readonly Invoice[] = [
  {
    invoice_id: 'INV-1001',
    customer: 'Acme GmbH',
    billing_email: 'ap@acme.example',
    amount: 1250.0,
    currency: 'EUR',
    status: 'open',
    issued_on: '2025-01-05',
    due_on: '2025-02-04',
  },
  {
    invoice_id: 'INV-1002',
    customer: 'Globex Ltd',
    billing_email: 'accounts@globex.example',
    amount: 89.99,
    currency: 'GBP',
    status: 'paid',
    issued_on: '2025-01-12',
    due_on: '2025-02-11',
  },
  {
    invoice_id: 'INV-1003',
    customer: 'Initech Inc',
    billing_email: 'billing@initech.example',
    amount: 4300.5,
    currency: 'USD',
    status: 'overdue',
    issued_on: '2024-11-20',
    due_on: '2024-12-20',
  },
  {
    invoice_id: 'INV-1004',
    customer: 'Umbrella SA',
    billing_email: 'finance@umbrella.example',
    amount: 640.0,
    currency: 'EUR',
    status: 'refunded',
    issued_on: '2024-12-01',
    due_on: '2024-12-31',
  },
  {
    invoice_id: 'INV-1005',
    customer: 'Hooli LLC',
    billing_email: 'invoices@hooli.example',
    amount: 15.0,
    currency: 'USD',
    status: 'open',
    issued_on: '2025-02-01',
    due_on: '2025-03-03',
  },
];
