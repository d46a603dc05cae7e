// Tab 4, links and pixels (spec 2 §3 linkpixel): the campaign URL for the ad, the landing
// page's click-through link, the postback URL for the network and the pixel snippets.
import { Code2, Link2, MousePointerClick, Send } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../components/card';
import { SOURCE_URL_TOKENS } from './campaign-form';
import { CopyField } from './editor-ui';
import type { CampaignDetail } from './types';

/** A card of the tab: its icon and title, what it is for, and its fields (stacked unless said). */
function LinkCard({
  icon: Icon,
  title,
  description,
  className = 'stack',
  children,
}: {
  icon: typeof Link2;
  title: string;
  description: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card
      title={
        <span className="ce-inline-icon">
          <Icon size={16} aria-hidden /> {title}
        </span>
      }
      description={description}
    >
      <div className={className}>{children}</div>
    </Card>
  );
}

export function LinksTab({ detail }: { detail: CampaignDetail }) {
  const links = detail.linkpixel;
  const source = SOURCE_URL_TOKENS[detail.trafficSource];
  const usesLanding = detail.campaignType !== 'direct_link';
  return (
    <div className="ce-tab-stack">
      <LinkCard
        icon={Link2}
        title="Campaign URL"
        description="The tracking link to put in your ad. Every visit through it is counted and routed."
      >
        <CopyField
          id="link-campaign-url"
          label="Campaign URL"
          value={links.campaignURL}
          hint={
            source && detail.urlAppendToken === source.token ? (
              <>
                Fill the value of <code>{detail.urlAppendToken}</code> with your traffic source's macro, e.g.{' '}
                <code>{source.macro}</code>.
              </>
            ) : (
              <>
                <code>{detail.urlAppendToken}</code> carries the ad or creative id (the target); fill it with
                your traffic source's macro. The extra tokens follow it.
              </>
            )
          }
        />
      </LinkCard>

      <LinkCard
        icon={MousePointerClick}
        title="Landing page to offer"
        description={
          usesLanding
            ? 'Use this link for the call-to-action on your landing pages: it sends the visitor on to an offer page.'
            : 'Direct-link campaigns send visitors straight to the offer; this link serves landing-page campaigns.'
        }
      >
        <CopyField id="link-lp-offer" label="Click-through link" value={links.lpofferlink_simple} />
        {links.lpofferlink_options.length > 0 && (
          <div className="ce-option-links">
            <p className="field-label">Per option</p>
            {links.lpofferlink_options.map((o) => (
              <CopyField key={o.optionId} id={`link-option-${o.optionId}`} label={o.name} value={o.url} />
            ))}
          </div>
        )}
      </LinkCard>

      <LinkCard
        icon={Send}
        title="Conversion tracking"
        description="Give the postback URL to the affiliate network; it reports each conversion by click id."
      >
        <CopyField
          id="link-postback"
          label="Postback URL"
          value={links.postback}
          hint="Replace {clickid}, {payout} and {txid} with the network's own macros."
        />
        <CopyField
          id="link-postback-event"
          label="Postback URL for custom events"
          value={links.postback_event}
          hint="For events other than the conversion, such as add-to-cart or lead."
        />
      </LinkCard>

      <LinkCard
        icon={Code2}
        title="Pixels and scripts"
        className="ce-pixel-grid"
        description="When the network cannot call a postback, place one of these on the order confirmation page."
      >
        <CopyField id="link-pixel" label="Image pixel" value={links.pixel} multiline />
        <CopyField id="link-pixel-url" label="Image pixel URL" value={links.pixel_url} />
        <CopyField id="link-iframe" label="Iframe pixel" value={links.iframe} multiline />
        <CopyField id="link-script" label="Script pixel" value={links.script} multiline />
        <CopyField
          id="link-direct"
          label="Direct tracking script"
          value={links.direct_tracking}
          multiline
          hint="For traffic that reaches the landing page without the campaign URL: place it in the page's head and replace LANDING_PAGE_ID."
        />
      </LinkCard>
    </div>
  );
}
