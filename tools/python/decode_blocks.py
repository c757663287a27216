"""Decode raw blocks with the PyPI package factom-core and print their fields as JSON.

Used by test/integration/independent-decoder.test.ts as an implementation that shares no code with the node:
standard input is a JSON array of {"kind", "raw"} (kind: directory, admin, ec, asset, entryBlock, entry; raw:
hex), standard output a JSON array with one object per item, in order: the fields factom-core decoded, the
hashes it computed, and whether its encoder gives back the same bytes ("reencodes"). An item factom-core
cannot decode answers {"error": "..."} instead, so that one refusal does not hide the others.
"""

import hashlib
import json
import sys
import traceback

from factom_core.block_elements import Entry
from factom_core.block_elements.admin_messages import (
    AddAuditServer,
    AddFederatedServer,
    AddFederatedServerSigningKey,
    AddFederatedServerBitcoinAnchorKey,
    DirectoryBlockSignature,
    MatryoshkaHashAddOrReplace,
    MinuteNumber,
    RemoveFederatedServer,
)
from factom_core.block_elements.balance_increase import BalanceIncrease
from factom_core.block_elements.chain_commit import ChainCommit
from factom_core.block_elements.entry_commit import EntryCommit
from factom_core.blocks import AdminBlock, DirectoryBlock, EntryBlock, EntryCreditBlock, FactoidBlock


def h(b):
    return b.hex()


def directory(raw):
    b = DirectoryBlock.unmarshal(raw)
    hd, body = b.header, b.body
    entries = [
        {"chainId": "%064x" % 0x0A, "keyMR": h(body.admin_block_lookup_hash)},
        {"chainId": "%064x" % 0x0C, "keyMR": h(body.entry_credit_block_header_hash)},
        {"chainId": "%064x" % 0x0F, "keyMR": h(body.factoid_block_keymr)},
    ] + [{"chainId": h(e["chain_id"]), "keyMR": h(e["keymr"])} for e in body.entry_blocks]
    return {
        "keyMR": h(b.keymr),
        "fullHash": h(b.full_hash),
        "networkId": h(hd.network_id),
        "bodyMR": h(hd.body_mr),
        "computedBodyMR": h(body.merkle_root),
        "prevKeyMR": h(hd.prev_keymr),
        "prevFullHash": h(hd.prev_full_hash),
        "timestampSeconds": hd.timestamp,
        "height": hd.height,
        "blockCount": hd.block_count,
        "entries": entries,
        "reencodes": b.marshal() == raw,
    }


def admin_entry(m):
    if isinstance(m, DirectoryBlockSignature):
        return {
            "type": 0x01,
            "identityChainId": h(m.chain_id),
            "publicKey": h(m.signature.public_key),
            "signature": h(m.signature.signature),
        }
    if isinstance(m, (AddFederatedServer, AddAuditServer, RemoveFederatedServer)):
        return {"type": m.ADMIN_ID, "identityChainId": h(m.chain_id), "dbHeight": m.activation_height}
    if isinstance(m, AddFederatedServerSigningKey):
        return {
            "type": 0x08,
            "identityChainId": h(m.chain_id),
            "keyPriority": m.priority,
            "publicKey": h(m.new_public_key),
            "dbHeight": m.activation_height,
        }
    # the types of the reference's real admin blocks (test/fixtures/history/), which the node does not write
    if isinstance(m, MinuteNumber):
        return {"type": 0x00, "minute": m.minute}
    if isinstance(m, MatryoshkaHashAddOrReplace):
        return {"type": 0x03, "identityChainId": h(m.chain_id), "hash": h(m.new_matryoshka_hash)}
    if isinstance(m, AddFederatedServerBitcoinAnchorKey):
        return {
            "type": 0x09,
            "identityChainId": h(m.chain_id),
            "keyPriority": m.priority,
            "keyType": m.hash_type,
            "ecdsaPublicKey": h(m.public_key_hash),
        }
    if isinstance(m, int):
        return {"type": m, "unsupported": True}
    return {"type": m.ADMIN_ID, "other": repr(m)}


def admin(raw):
    b = AdminBlock.unmarshal(raw)
    hd = b.header
    return {
        "lookupHash": h(b.lookup_hash),
        "backReferenceHash": h(b.back_reference_hash),
        "prevBackRefHash": h(hd.prev_back_reference_hash),
        "height": hd.height,
        "headerExpansion": h(hd.expansion_area),
        "messageCount": hd.message_count,
        "bodySize": hd.body_size,
        "entries": [admin_entry(m) for m in b.body.messages],
        "reencodes": b.marshal() == raw,
    }


def ec_item(o):
    if isinstance(o, int):
        return {"type": "serverIndex", "number": o}
    if isinstance(o, ChainCommit):
        return {
            "type": "chainCommit",
            "milliTimestamp": o.timestamp,
            "chainIdHash": h(o.chain_id_hash),
            "weld": h(o.commit_weld),
            "entryHash": h(o.entry_hash),
            "credits": o.ec_spent,
            "ecPublicKey": h(o.ec_public_key),
            "signature": h(o.signature),
        }
    if isinstance(o, EntryCommit):
        return {
            "type": "entryCommit",
            "milliTimestamp": o.timestamp,
            "entryHash": h(o.entry_hash),
            "credits": o.ec_spent,
            "ecPublicKey": h(o.ec_public_key),
            "signature": h(o.signature),
        }
    if isinstance(o, BalanceIncrease):
        return {
            "type": "balanceIncrease",
            "ecPublicKey": h(o.ec_public_key),
            "txId": h(o.tx_id),
            "index": o.index,
            "numEC": o.quantity,
        }
    return {"type": "unknown", "repr": repr(o)}


def ec(raw):
    b = EntryCreditBlock.unmarshal(raw)
    hd = b.header
    items = []
    # factom-core keeps the body as {minute: objects before that minute's marker}, in body order
    for minute, objects in b.body.objects.items():
        items.extend(ec_item(o) for o in objects)
        items.append({"type": "minute", "number": minute})
    return {
        "headerHash": h(b.header_hash),
        "fullHash": h(b.full_hash),
        "bodyHash": h(hd.body_hash),
        "computedBodyHash": h(hashlib.sha256(b.body.marshal()).digest()),
        "prevHeaderHash": h(hd.prev_header_hash),
        "prevFullHash": h(hd.prev_full_hash),
        "height": hd.height,
        "headerExpansion": h(hd.expansion_area),
        "objectCount": hd.object_count,
        "bodySize": hd.body_size,
        "items": items,
        "reencodes": b.marshal() == raw,
    }


def tx_fields(tx):
    return {
        "txId": h(tx.tx_id),
        "fullHash": h(tx.hash),
        "milliTimestamp": tx.timestamp,
        "inputs": [{"amount": str(i["value"]), "address": h(i["fct_address"])} for i in tx.inputs],
        "outputs": [{"amount": str(o["value"]), "address": h(o["fct_address"])} for o in tx.outputs],
        "ecOutputs": [{"amount": str(o["value"]), "address": h(o["ec_public_key"])} for o in tx.ec_purchases],
        "signatures": [{"publicKey": h(r.public_key), "signature": h(r.signature)} for r in tx.rcds],
    }


def asset(raw):
    b = FactoidBlock.unmarshal(raw)
    hd = b.header
    return {
        "keyMR": h(b.keymr),
        "bodyMR": h(hd.body_mr),
        "computedBodyMR": h(b.body.merkle_root),
        "prevKeyMR": h(hd.prev_keymr),
        "prevLedgerKeyMR": h(hd.prev_ledger_keymr),
        "exchangeRate": str(hd.ec_exchange_rate),
        "height": hd.height,
        "headerExpansion": h(hd.expansion_area),
        "transactionCount": hd.tx_count,
        "bodySize": hd.body_size,
        "periods": [[tx_fields(t) for t in txs] for txs in b.body.transactions.values()],
        "reencodes": b.marshal() == raw,
    }


def entry_block(raw):
    b = EntryBlock.unmarshal(raw)
    hd = b.header
    return {
        "keyMR": h(b.keymr),
        "fullHash": h(b.full_hash),
        "chainId": h(hd.chain_id),
        "bodyMR": h(hd.body_mr),
        "computedBodyMR": h(b.body.merkle_root),
        "prevKeyMR": h(hd.prev_keymr),
        "prevFullHash": h(hd.prev_full_hash),
        "sequence": hd.sequence,
        "height": hd.height,
        "entryCount": hd.entry_count,
        "minutes": [{"minute": m, "entryHashes": [h(x) for x in hs]} for m, hs in b.body.entry_hashes.items()],
        "reencodes": b.marshal() == raw,
    }


def entry(raw):
    e = Entry.unmarshal(raw)
    return {
        "entryHash": h(e.entry_hash),
        "chainId": h(e.chain_id),
        "extIds": [h(x) for x in e.external_ids],
        "content": h(e.content),
        "reencodes": e.marshal() == raw,
    }


DECODERS = {
    "directory": directory,
    "admin": admin,
    "ec": ec,
    "asset": asset,
    "entryBlock": entry_block,
    "entry": entry,
}


def main():
    items = json.load(sys.stdin)
    out = []
    for item in items:
        try:
            out.append(DECODERS[item["kind"]](bytes.fromhex(item["raw"])))
        except Exception as e:  # one refusal is a result to compare, not the end of the run
            out.append({"error": "%s: %s" % (type(e).__name__, e), "trace": traceback.format_exc(limit=3)})
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
