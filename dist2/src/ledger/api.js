/** Spec §3 statuses. */
export const AckStatus = {
    Unknown: "Unknown",
    NotConfirmed: "NotConfirmed",
    TransactionACK: "TransactionACK",
    DBlockConfirmed: "DBlockConfirmed",
};
//# sourceMappingURL=api.js.map