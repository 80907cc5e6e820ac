package com.example.invoices;

/** The payload of the invoice tasks (JSON on the wire). */
public record InvoiceRef(long invoiceId) {}
