/** Every counter at zero. */
export function newCounters() {
    return {
        commitsAccepted: 0,
        revealsAccepted: 0,
        revealsHeld: 0,
        revealsExpired: 0,
        transactionsAccepted: 0,
        rejected: 0,
        blocksClosed: 0,
        lastCloseMs: 0,
        lastCloseSaveMs: 0,
        lastCloseWriteMs: 0,
        lastCloseBuildMs: 0,
        lastCloseLongestTurnMs: 0,
        lastCloseCpuMs: 0,
        replayedMessages: 0,
    };
}
//# sourceMappingURL=state.js.map