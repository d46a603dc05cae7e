// Types of tests/support/liveintent-forms.mjs for the Vitest files.
type Form = Record<string, unknown>;
export declare function liCampaignForm(campaignId: number, over?: Form): Form;
export declare function liLineItemForm(campaignId: number, liCampaignId: string, over?: Form): Form;
